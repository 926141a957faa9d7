package hostside.report;

import java.util.Locale;
import java.util.Optional;

import hostside.core.Stats;
import hostside.core.Versus;
import hostside.harness.Result;
import hostside.io.IoRun;
import hostside.vm.VmRun;

/**
 * Two drills read a file cold: Module 2's read-vs-mmap case (file_read_cold) and Module 4's
 * checkpoint read (seq_read_cold_qd1), each of its own file, in 1 MiB reads. Page one quotes the
 * second as the storage's figure and the headlines the first; where they disagree beyond both
 * spreads the page says so beside the figure it quotes, naming both, instead of leaving two
 * figures for one thing without a word.
 */
final class ColdReads {
    private ColdReads() {}

    static final String VM_KEY = "file_read_cold", IO_KEY = "seq_read_cold_qd1";

    /** "; Module 2's file_read_cold read 6.38 GB/s (...): the two disagree beyond their spreads ..." where they do; empty where one is missing or they agree. */
    static Optional<String> disagreement(VmRun vm, IoRun io) {
        if (vm == null || io == null) return Optional.empty();
        Optional<Result> a = vm.host().stream().filter(r -> r.key().equals(VM_KEY) && r.isOk()).findFirst();
        Optional<Result> b = io.results().stream().filter(r -> r.key().equals(IO_KEY) && r.isOk()).findFirst();
        if (a.isEmpty() || b.isEmpty()) return Optional.empty();
        Stats v = a.get().value(), i = b.get().value();
        if (Versus.of(v, i) == Versus.EVEN) return Optional.empty();
        return Optional.of(String.format(Locale.ROOT, "; Module 2's cold read of its own file (%s) gave %.2f GB/s (%.2f-%.2f) against this %.2f GB/s (%.2f-%.2f, %s):"
                        + " the two disagree beyond their spreads, so neither is the storage's one figure (they read different files at different moments"
                        + " of the run); run hostside io alone again to see which holds",
                VM_KEY, v.median(), v.min(), v.max(), i.median(), i.min(), i.max(), IO_KEY));
    }
}
