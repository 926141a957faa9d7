package hostside.gpu.peer;

import java.util.List;
import java.util.Objects;

/**
 * One figure per ordered pair of GPUs, laid out as nvbandwidth prints its matrices: a row per
 * GPU, a column per GPU, by CUDA ordinal. Each pair's figure is the median of its samples, with
 * their min and max beside it in matrices of the same shape, so that a pair's figure keeps its
 * spread as every other figure does.
 *
 * @param gpus      the row and column labels: ordinal, name and PCI address
 * @param addresses each row's (and column's) PCI address in sysfs's spelling: the join with the PCIe tree
 * @param rows      what the row's GPU is in each measurement
 * @param columns   what the column's GPU is
 * @param values    {@code values[row][column]}, the median; null on the diagonal and for pairs not measured
 * @param min       the smallest sample of each pair, null where {@code values} is
 * @param max       the largest sample of each pair, null where {@code values} is
 */
public record PeerMatrix(List<String> gpus, List<String> addresses, String rows, String columns, List<List<Double>> values,
                         List<List<Double>> min, List<List<Double>> max) {

    public PeerMatrix {
        gpus = List.copyOf(gpus);
        addresses = List.copyOf(addresses);
        values = copy(values);
        min = min == null ? values : copy(min);
        max = max == null ? values : copy(max);
        if (min.size() != values.size() || max.size() != values.size()) throw new IllegalArgumentException("min, max and values differ in shape");
    }

    /** A matrix known only by its pairs' medians (as nvbandwidth prints it): each pair's min and max are its median. */
    public PeerMatrix(List<String> gpus, List<String> addresses, String rows, String columns, List<List<Double>> values) {
        this(gpus, addresses, rows, columns, values, null, null);
    }

    private static List<List<Double>> copy(List<List<Double>> m) {
        return m.stream().map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
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
        return total(values);
    }

    /** The sum of the pairs' minima: the least the SUM line could have been. */
    public double sumOfMin() {
        return total(min);
    }

    /** The sum of the pairs' maxima. */
    public double sumOfMax() {
        return total(max);
    }

    private static double total(List<List<Double>> m) {
        return m.stream().flatMap(List::stream).filter(Objects::nonNull).mapToDouble(Double::doubleValue).sum();
    }
}
