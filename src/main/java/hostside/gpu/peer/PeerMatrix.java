package hostside.gpu.peer;

import java.util.List;
import java.util.Objects;

/**
 * One figure per ordered pair of GPUs, laid out as nvbandwidth prints its matrices: a row per
 * GPU, a column per GPU, by CUDA ordinal.
 *
 * @param gpus      the row and column labels: ordinal, name and PCI address
 * @param addresses each row's (and column's) PCI address in sysfs's spelling: the join with the PCIe tree
 * @param rows    what the row's GPU is in each measurement
 * @param columns what the column's GPU is
 * @param values  {@code values[row][column]}; null on the diagonal and for pairs not measured
 */
public record PeerMatrix(List<String> gpus, List<String> addresses, String rows, String columns, List<List<Double>> values) {

    public PeerMatrix {
        gpus = List.copyOf(gpus);
        addresses = List.copyOf(addresses);
        values = values.stream().map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
    }

    /** The figure from the GPU at {@code rowAddress} to the one at {@code columnAddress}, null when not measured or not in the matrix. */
    public Double at(String rowAddress, String columnAddress) {
        int r = addresses.indexOf(rowAddress), c = addresses.indexOf(columnAddress);
        return r < 0 || c < 0 ? null : values.get(r).get(c);
    }

    /** The measured figures, row by row. */
    public double[] measured() {
        return values.stream().flatMap(List::stream).filter(Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
    }

    /** nvbandwidth's SUM line: every measured figure added up. */
    public double sum() {
        double s = 0;
        for (double v : measured()) s += v;
        return s;
    }
}
