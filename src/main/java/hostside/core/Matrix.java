package hostside.core;

import java.util.List;

/**
 * A figure for each ordered pair, nvbandwidth's way: {@code values.get(r).get(c)} is from row r
 * (the GPU that issues the copy or runs the kernel) to column c; null where a pair was not
 * measured (the diagonal, a pair without peer access).
 */
public record Matrix(List<String> rows, List<String> columns, Unit unit, List<List<Double>> values) {
    public Matrix {
        rows = List.copyOf(rows);
        columns = List.copyOf(columns);
        values = values.stream().map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
        if (values.size() != rows.size()) throw new IllegalArgumentException(values.size() + " rows of values for " + rows.size() + " rows");
        for (List<Double> r : values) {
            if (r.size() != columns.size()) throw new IllegalArgumentException("a row of " + r.size() + " values for " + columns.size() + " columns");
        }
    }

    public Double at(int row, int column) {
        return values.get(row).get(column);
    }
}
