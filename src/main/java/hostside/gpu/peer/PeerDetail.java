package hostside.gpu.peer;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.harness.DetailFigures;
import hostside.harness.Result;

/**
 * What a peer test case keeps beside its summary figure: nvbandwidth's matrices (the one the
 * summary is of first), its SUM line for bandwidths, the pairs left out and why, and what it ran
 * with. One record per shape of case, each keeping the property names the detail has always had in
 * --json ("matrix"; "total", "read1", "read2"; "sum", "notMeasured"), so the report's reader
 * finds them where it did.
 */
public sealed interface PeerDetail extends DetailFigures {

    /** What the summary figure is of, in words: "the median over 2 pairs of matrix; ...". */
    String value();

    /** The matrix the result's figure summarises. */
    PeerMatrix main();

    /** nvbandwidth's SUM line of {@link #main()}; null for latencies, whose sum means nothing. */
    Double sum();

    List<NotMeasured> notMeasured();

    int samplesPerPair();

    /** The names --json gives the matrices besides the main one (a bidirectional case's two directions). */
    default List<String> others() {
        return List.of();
    }

    /**
     * One figure per ordered pair of GPUs under the case's key, about that pair (its spread the
     * pair's own samples'), and for bandwidths nvbandwidth's SUM about the machine. A GPU paired
     * with itself ({@link Loopback}) is no pair: its cells give none.
     */
    @Override
    default List<Figure> figures(Result r, Scope scope) {
        PeerMatrix m = main();
        List<Figure> f = new ArrayList<>();
        for (int i = 0; i < m.addresses().size(); i++) {
            for (int j = 0; j < m.addresses().size(); j++) {
                Double v = m.values().get(i).get(j);
                String a = m.addresses().get(i), b = m.addresses().get(j);
                if (v == null || a.equals(b)) continue;
                f.add(new Figure(r.key(), Scope.pair(a, b), v, r.unit(), r.better(), m.min().get(i).get(j), m.max().get(i).get(j),
                        samplesPerPair(), r.method(), r.anchor()));
            }
        }
        if (sum() != null && !f.isEmpty()) {
            f.add(new Figure(r.key() + "_sum", scope, sum(), r.unit(), r.better(), Math.min(sum(), m.sumOfMin()), Math.max(sum(), m.sumOfMax()),
                    samplesPerPair(), "nvbandwidth's SUM: every pair's median added up (min and max: the sums of the pairs' minima and maxima)", r.anchor()));
        }
        return f;
    }

    /**
     * A copy one way between each ordered pair (the read and write copies, and the staged one).
     *
     * @param bufferBytes     the size of each copy (of the last pair measured)
     * @param copiesPerSample copies timed together in one sample
     */
    record OneWay(String value, PeerMatrix matrix, Double sum, List<NotMeasured> notMeasured, int samplesPerPair, long bufferBytes,
                  int copiesPerSample) implements PeerDetail {
        public OneWay {
            notMeasured = List.copyOf(notMeasured);
        }

        @Override
        public PeerMatrix main() {
            return matrix;
        }
    }

    /** An SM copy between each ordered pair, with the kernel's grid. */
    record SmCopy(String value, PeerMatrix matrix, Double sum, List<NotMeasured> notMeasured, int samplesPerPair, long bufferBytes,
                  int copiesPerSample, String grid) implements PeerDetail {
        public SmCopy {
            notMeasured = List.copyOf(notMeasured);
        }

        @Override
        public PeerMatrix main() {
            return matrix;
        }
    }

    /**
     * One load across the link, in ns; no SUM.
     *
     * @param chainBytes     the pointer chain's size (of the last pair measured)
     * @param strideBytes    the distance between its pointers
     * @param stepsPerSample dependent loads timed in one sample
     */
    record Latency(String value, PeerMatrix matrix, List<NotMeasured> notMeasured, int samplesPerPair, long chainBytes, int strideBytes,
                   int stepsPerSample) implements PeerDetail {
        public Latency {
            notMeasured = List.copyOf(notMeasured);
        }

        @Override
        public PeerMatrix main() {
            return matrix;
        }

        @Override
        public Double sum() {
            return null;
        }
    }

    /**
     * Both directions of a pair at once, each GPU pulling from the other: {@code total} both
     * added (the summary's), {@code read1} into the row GPU, {@code read2} into the column GPU.
     */
    record BidirectionalRead(String value, PeerMatrix total, PeerMatrix read1, PeerMatrix read2, Double sum, List<NotMeasured> notMeasured,
                             int samplesPerPair, long bufferBytes, int copiesPerSample) implements PeerDetail {
        public BidirectionalRead {
            notMeasured = List.copyOf(notMeasured);
        }

        @Override
        public PeerMatrix main() {
            return total;
        }

        @Override
        public List<String> others() {
            return List.of("read1", "read2");
        }
    }

    /** The same with each GPU pushing to the other: {@code write1} into the row GPU, {@code write2} into the column GPU. */
    record BidirectionalWrite(String value, PeerMatrix total, PeerMatrix write1, PeerMatrix write2, Double sum, List<NotMeasured> notMeasured,
                              int samplesPerPair, long bufferBytes, int copiesPerSample) implements PeerDetail {
        public BidirectionalWrite {
            notMeasured = List.copyOf(notMeasured);
        }

        @Override
        public PeerMatrix main() {
            return total;
        }

        @Override
        public List<String> others() {
            return List.of("write1", "write2");
        }
    }
}
