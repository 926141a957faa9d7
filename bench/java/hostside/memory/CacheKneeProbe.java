package hostside.memory;

import java.util.Locale;

import hostside.core.CpuSet;
import hostside.core.Sweep;
import hostside.libc.Sched;

/**
 * The cache probe STREAM's arrays are sized by where sysfs names no cache size ({@link CacheKnee}),
 * run on its own on a machine that does name one, to set what it finds beside sysfs's figure: its
 * curve, shape, knee and cost. Arguments: the number of CPUs (the first this process may use;
 * default all), the largest set in MiB (default {@link CacheKnee#MAX_BYTES}), "base" for base
 * pages. Compiled against the jar (javac -cp target/hostside.jar -d DIR) and run on the class
 * path beside it; BenchProbesTest compiles it with the build.
 */
public final class CacheKneeProbe {
    public static void main(String[] args) {
        var mine = Sched.affinity();
        int n = args.length > 0 ? Math.min(Integer.parseInt(args[0]), mine.size()) : mine.size();
        long max = args.length > 1 ? Long.parseLong(args[1]) << 20 : CacheKnee.MAX_BYTES;
        boolean huge = args.length <= 2 || !args[2].equals("base");
        CpuSet cpus = CpuSet.of(mine.subList(0, n).stream().mapToInt(Integer::intValue).toArray());
        CacheKnee.Knee k = CacheKnee.measure(cpus, max, huge);
        for (Sweep.Point p : k.curve().points()) {
            System.out.printf(Locale.ROOT, "%8.1f MiB %7.1f ns (threads' fastest: %.1f-%.1f)%n", p.bytes() / 1048576.0, p.value().median(), p.value().min(), p.value().max());
        }
        System.out.printf(Locale.ROOT, "shape %s knee %.1f MiB in %.0f ms%n%s%n", k.shape(), k.kneeBytes() / 1048576.0, k.ms(), k.why());
    }
}
