package hostside.gpu.bench;

import java.util.ArrayList;
import java.util.List;

import hostside.gpu.cuda.Cuda;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.TestCase;

/** A bare run of every GPU test case on GPU 0, printing one line each: for trying the bindings on a new machine. */
public final class GpuProbe {
    public static void main(String[] args) {
        Cuda.Open open = Cuda.open();
        if (open instanceof Cuda.Open.NotRun n) {
            System.out.println("not run: " + n.why());
            return;
        }
        Cuda cuda = ((Cuda.Open.Ready) open).cuda();
        System.out.println("driver " + cuda.driverVersion() + ", " + ((Cuda.Open.Ready) open).devices() + " GPU(s)");
        try (GpuBench b = new GpuBench(cuda, 0)) {
            long[] mem = b.memory();
            long avail = Long.parseLong(java.util.Arrays.stream(readMeminfo().split("\n")).filter(l -> l.startsWith("MemAvailable"))
                    .findFirst().orElse("MemAvailable: 4194304 kB").replaceAll("\\D+", "")) * 1024;
            Target t = new Target(b, avail, mem[0]);
            List<TestCase<Target>> tests = new ArrayList<>(Copies.all());
            tests.addAll(SmAccess.all());
            if (args.length > 0) tests = Runner.select(tests, List.of(args));
            for (Result r : Runner.run(tests, t, k -> { })) {
                if (r.isOk()) {
                    System.out.printf("%-28s %10.2f %-4s (min %.2f, max %.2f, n=%d)  %s%n", r.key(), r.value().median(), r.unit(),
                            r.value().min(), r.value().max(), r.value().samples(), r.detail());
                } else {
                    System.out.printf("%-28s %s: %s%n", r.key(), r.status(), r.why());
                }
            }
        }
    }

    private static String readMeminfo() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/meminfo"));
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
