package hostside.gpu.peer;

import java.util.List;

/**
 * An ordered pair a peer test case left out, by its place in the matrix, and why ("cuDeviceCanAccessPeer
 * is 0"). Kept as indices so that each view names the GPUs as it names them elsewhere.
 */
public record NotMeasured(int row, int column, String why) {

    /** "GPU1 to GPU2: why", with {@code labels} in matrix order; indices where a label is missing. */
    public String named(List<String> labels) {
        return name(row, labels) + " to " + name(column, labels) + ": " + why;
    }

    private static String name(int i, List<String> labels) {
        return i < labels.size() ? labels.get(i) : String.valueOf(i);
    }
}
