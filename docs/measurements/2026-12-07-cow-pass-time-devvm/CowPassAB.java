import java.time.Duration;
import java.util.Locale;
import hostside.cpu.dataloader.*;
import hostside.harness.Result;

/** The copy-on-write figures at 1 s passes and at 0.5 s passes, alternating, as the report runs them (51 MiB, 4 workers). */
public class CowPassAB {
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        DataLoaderTarget base = DataLoaderTarget.onThisMachine(51L << 20, 4, Duration.ofSeconds(120));
        for (int r = 1; r <= rounds; r++) {
            for (int ms : (r % 2 == 1 ? new int[]{1000, 500} : new int[]{500, 1000})) {
                for (DatasetKind k : DatasetKind.values()) {
                    DataLoaderTarget t = base.withPasses(3, Duration.ofMillis(ms));
                    long t0 = System.nanoTime();
                    Result res = new CowGrowth(k).run(t);
                    double s = (System.nanoTime() - t0) / 1e9;
                    System.out.println(String.format(Locale.ROOT, "round %d pass %4d ms %-5s %s %s (%s-%s) %%, %d workers, %.2f s", r, ms, k,
                            res.status(), res.isOk() ? String.format(Locale.ROOT, "%.2f", res.value().median()) : res.why(),
                            res.isOk() ? String.format(Locale.ROOT, "%.2f", res.value().min()) : "", res.isOk() ? String.format(Locale.ROOT, "%.2f", res.value().max()) : "",
                            res.isOk() ? res.value().samples() : 0, s));
                }
            }
        }
    }
}
