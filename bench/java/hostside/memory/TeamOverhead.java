package hostside.memory;

import java.util.Arrays;
import java.util.List;
import hostside.core.CpuSet;
import hostside.libc.Sched;

/**
 * What the memory team's barrier costs: 20,000 empty runs of a team of 1, 4 and every CPU, the time
 * {@code run} returns (release to the last member's end) and the caller's whole call, then 50 runs
 * each after 20 ms idle (the members parked). Lives in the team's package, which is not exported:
 * compiled against the jar (javac -cp target/hostside.jar -d DIR) and run on the class path beside it;
 * BenchProbesTest compiles it with the build.
 */
public final class TeamOverhead {
    public static void main(String[] args) throws Exception {
        List<Integer> mine = Sched.affinity();
        for (int n : new int[] {1, 4, mine.size()}) {
            if (n > mine.size()) continue;
            CpuSet set = CpuSet.of(mine.subList(0, n).stream().mapToInt(Integer::intValue).toArray());
            try (Team team = new Team(set)) {
                int runs = 20000;
                long[] timed = new long[runs], call = new long[runs];
                for (int i = 0; i < 5000; i++) team.run(x -> {});
                for (int i = 0; i < runs; i++) {
                    long t0 = System.nanoTime();
                    timed[i] = team.run(x -> {});
                    call[i] = System.nanoTime() - t0;
                }
                // a run after an idle gap, as between a harness's samples
                long[] gap = new long[50];
                for (int i = 0; i < gap.length; i++) {
                    Thread.sleep(20);
                    gap[i] = team.run(x -> {});
                }
                Arrays.sort(timed);
                Arrays.sort(call);
                Arrays.sort(gap);
                System.out.printf(java.util.Locale.ROOT, "%s members %2d: timed p50 %6d ns p99 %7d ns | call p50 %6d p99 %7d | after 20 ms idle p50 %7d max %7d%n",
                        args.length > 0 ? args[0] : "", n, timed[runs / 2], timed[runs * 99 / 100], call[runs / 2], call[runs * 99 / 100], gap[25], gap[49]);
            }
        }
    }
}
