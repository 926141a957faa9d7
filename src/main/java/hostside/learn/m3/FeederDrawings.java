package hostside.learn.m3;

import static hostside.learn.Figs.*;
import static hostside.learn.m3.FeederStep.*;

import java.util.ArrayList;
import java.util.List;

import hostside.learn.Inputs.Value;
import hostside.learn.Svg;

/** The feeder stepper's drawings: the step's parts, the syscall, switches and wake-up, the launch budget and the jitter timelines. */
final class FeederDrawings {
    private FeederDrawings() {}

    /** The step's actors: a DataLoader worker, the feeder, the launch queue, the GPU. */
    static String overview() {
        Svg s = new Svg(W, H);
        s.text(W / 2.0, 22, "One training step, CPU side", "middle", "on");
        s.box(10, 90, 130, 60, "DataLoader worker\n(CPU 3)", "dim");
        s.box(240, 90, 150, 60, "main thread: the feeder\n(CPU 0)", "on");
        s.box(490, 60, 140, 40, "GPU launch queue", "dim");
        s.box(490, 150, 140, 40, "GPU: kernels run", "dim");
        s.arrow(140, 120, 240, 120, "", "on");
        s.text(190, 142, "batch, futex wake", "middle", "on");
        s.arrow(390, 110, 490, 80, "", "on");
        s.text(440, 70, "cuLaunchKernel", "middle", "on");
        s.arrow(560, 100, 560, 150, "", "dim");
        s.line(240, 200, 390, 200, "dim");
        s.text(315, 218, "syscalls, sleeps: the kernel", "middle", "dim");
        s.text(W / 2.0, 248, "next: what each hand-over costs on this machine", "middle", "dim");
        return s.render("The step's actors: a DataLoader worker hands a batch to the feeder thread, which launches kernels into the GPU's queue");
    }

    static String syscall(Value sys) {
        Svg s = new Svg(W, H);
        s.box(40, 40, 560, 60, "user space: the feeder thread (Python, PyTorch)", "on");
        s.box(40, 160, 560, 60, "kernel: entry, getppid, exit (mitigations on the way)", "dim");
        s.arrow(260, 100, 260, 160, "syscall", "hot");
        s.arrow(380, 160, 380, 100, "return", "on");
        s.text(400, 136, "round trip: " + n(sys.value()) + " " + sys.unit() + (sys.mine() ? "" : " (typical)"), "start", "hot");
        s.text(320, 245, "the H200 VM: 125-137 ns; over 0.8 us is slow", "middle", "dim");
        return s.render("A syscall from the feeder into the kernel and back, " + n(sys.value()) + " " + sys.unit());
    }

    static String switches(Value same, Value cross) {
        Svg s = new Svg(W, H);
        s.text(160, 30, "same core", "middle", "on");
        s.box(60, 50, 200, 50, "CPU 0: feeder", "on");
        s.box(60, 150, 200, 50, "CPU 0: worker", "dim");
        s.arrow(120, 100, 120, 150, "", "on");
        s.arrow(200, 150, 200, 100, "", "on");
        s.text(160, 230, "switch: " + n(same.value()) + " us" + (same.mine() ? "" : " (typical)"), "middle", "on");
        s.text(480, 30, "across cores", "middle", "hot");
        s.box(380, 50, 200, 50, "CPU 0: feeder", "on");
        s.box(380, 150, 200, 50, "CPU 1: worker", "dim");
        s.arrow(440, 100, 440, 150, "", "hot");
        s.arrow(520, 150, 520, 100, "", "hot");
        s.text(480, 230, "hand-over: " + n(cross.value()) + " us" + (cross.mine() ? "" : " (typical)"), "middle", "hot");
        return s.render("A context switch costs " + n(same.value()) + " us on one core and " + n(cross.value()) + " us across cores");
    }

    static String wakeup(Value wake) {
        Svg s = new Svg(W, H);
        double x0 = 200, x1 = 560;
        s.text(8, 85, "worker, CPU 1", "start", "dim");
        s.text(8, 175, "feeder, CPU 0", "start", "on");
        s.bar(x0 - 80, 70, 80, 20, "dim");
        s.dot(x0, 80, 6, "hot");
        s.text(x0, 60, "FUTEX_WAKE", "middle", "hot");
        s.line(x0, 170, x1, 170, "dim");
        s.text((x0 + x1) / 2, 160, "asleep in FUTEX_WAIT, then woken", "middle", "dim");
        s.bar(x1, 160, 60, 20, "on");
        s.text(x1 + 30, 150, "runs", "middle", "on");
        s.arrow(x0, 90, x1, 160, n(wake.value()) + " us" + (wake.mine() ? "" : " (typical)"), "hot");
        s.text(W / 2.0, 235, "from the wake call to the sleeper running on its own core", "middle", "dim");
        return s.render("A futex wake-up across cores: the sleeper runs " + n(wake.value()) + " us after the wake call");
    }

    /** One launch's share of a period: the call, a worker's wake-up, a syscall; then the quiet p99 lateness beside it. */
    static String budget(Value sys, Value wake, Cond quiet) {
        Svg s = new Svg(W, H);
        double x0 = 40, w = 560, k = w / PERIOD_US;
        s.text(x0, 30, "one " + n(PERIOD_US) + " us period at " + count(1e6 / PERIOD_US) + " launches/s", "start", "on");
        s.bar(x0, 45, w, 36, "dim");
        double x = x0;
        double[] parts = {quiet.launchP50().value(), wake.value(), sys.value() / 1e3};
        String[] cls = {"on", "hot", "on"};
        for (int i = 0; i < parts.length; i++) {
            double pw = Math.min(parts[i] * k, x0 + w - x);
            s.bar(x, 45, pw, 36, cls[i]);
            x += pw;
        }
        s.text(x0, 100, f("launch %s us + wake-up %s us + syscall %s us", n(parts[0]), n(parts[1]), n(parts[2])), "start", "on");
        double left = PERIOD_US - parts[0] - parts[1] - parts[2];
        s.text(x0 + w - 6, 68, left > 0 ? "left: " + n(left) + " us" : "over by " + n(-left) + " us", "end", left > 0 ? "on" : "bad");
        s.text(x0, 150, "and how late the feeder wakes (quiet, p99):", "start", "on");
        double lw = Math.min(w, quiet.p99().value() * k);
        s.bar(x0, 165, lw, 36, quiet.p99().value() > PERIOD_US ? "bad" : "hot");
        String late = n(quiet.p99().value()) + " us" + (quiet.p99().value() > PERIOD_US ? ", past the period" : "");
        if (lw > w - 140) s.text(x0, 222, late, "start", "bad");
        else s.text(x0 + lw + 6, 188, late, "start", "hot");
        s.line(x0 + w, 40, x0 + w, 210, "on");
        s.text(x0 + w, 230, n(PERIOD_US) + " us: next launch due", "end", "on");
        return s.render("One launch's CPU costs against its " + n(PERIOD_US) + " us period, and the quiet p99 lateness beside them");
    }

    /**
     * The four conditions as timelines of {@link #TICKS} ticks, the first {@code revealed} drawn
     * (the last of them lit), the others ticks only: most launches at p50, one at p99, one at
     * p99.9; a wake-up past later ticks skips them, as the drill counts them missed.
     */
    static String timeline(List<Cond> conds, int revealed) {
        Svg s = new Svg(W, H);
        double x0 = 178, w = 450, k = w / (TICKS * PERIOD_US);
        s.text(8, 16, f("a tick every %s us (%s/s); launches at p50, %dth at p99, %dth at p99.9", n(PERIOD_US), count(1e6 / PERIOD_US),
                AT_P99 + 1, AT_P999 + 1), "start", "on");
        s.text(8, 32, "| tick   \u25ae launch   x missed tick   (quantiles placed, not a recording)", "start", "dim");
        for (int r = 0; r < conds.size(); r++) {
            Cond c = conds.get(r);
            double y = 44 + r * 48, base = y + 36;
            boolean shown = r < revealed, lit = r == revealed - 1;
            String cls = lit ? "on" : "dim";
            s.text(8, y + 12, c.label() + (c.timer() ? " (timer)" : ""), "start", shown ? cls : "dim");
            s.text(8, y + 26, shown ? "p99 " + n(c.p99().value()) + ", p99.9 " + n(c.p999().value()) + " us" : "?", "start", shown ? cls : "dim");
            if (shown) s.text(8, y + 40, "missed " + pct(c.missed().value()) + (c.p99().mine() ? "" : ", typical"), "start", cls);
            s.line(x0, base, x0 + w, base, "dim");
            for (int i = 0; i <= TICKS; i++) s.line(x0 + i * PERIOD_US * k, base - 4, x0 + i * PERIOD_US * k, base + 6, "dim");
            if (!shown) continue;
            double launchUs = c.timer() ? 0 : c.launchP50().value();
            int i = 0;
            while (i < TICKS) {
                double late = i == AT_P99 ? c.p99().value() : i == AT_P999 ? c.p999().value() : c.p50().value();
                double tick = i * PERIOD_US, wake = tick + late, end = TICKS * PERIOD_US;
                String mark = lit ? (i == AT_P99 || i == AT_P999 ? "hot" : "on") : "dim";
                double wx = x0 + Math.min(wake, end) * k;
                s.line(x0 + tick * k, base - 2, wx, base - 2, mark);
                if (wake >= end) {
                    s.text(x0 + w, y + 14, "... " + n(late) + " us late", "end", lit ? "bad" : "dim");
                    break;
                }
                s.bar(wx, base - 18, Math.max(5, launchUs * k), 16, mark);
                if (lit && (i == AT_P99 || i == AT_P999)) s.text(wx, y + 14, i == AT_P99 ? "p99" : "p99.9", "middle", "hot");
                int next = i + 1;
                while (next < TICKS && next * PERIOD_US <= wake) {
                    s.text(x0 + next * PERIOD_US * k, base + 12, "x", "middle", lit ? "bad" : "dim");
                    next++;
                }
                i = next;
            }
        }
        return s.render(f("Launch timelines, %d of 4 conditions shown: ticks every %s us, launches at this machine's p50, p99 and p99.9 lateness",
                revealed, n(PERIOD_US)));
    }

    /** p99 and p99.9 of the four conditions against the period, the scale capped at 20 periods. */
    static String summary(List<Cond> conds) {
        Svg s = new Svg(W, H);
        double max = PERIOD_US;
        for (Cond c : conds) max = Math.max(max, c.p999().value());
        max = Math.min(max * 1.15, 20 * PERIOD_US);
        double x0 = 150, w = 360, k = w / max; // room after the longest bar for "5910 (off scale)"
        s.text(8, 18, "lateness at p99 (upper bar) and p99.9 (lower bar), us", "start", "on");
        List<String> hot = new ArrayList<>();
        for (int r = 0; r < conds.size(); r++) {
            Cond c = conds.get(r);
            double y = 36 + r * 50;
            s.text(8, y + 14, c.label(), "start", "on");
            s.text(8, y + 30, "missed " + pct(c.missed().value()), "start", c.missed().value() >= 1 ? "bad" : "dim");
            double b99 = Math.min(w, c.p99().value() * k), b999 = Math.min(w, c.p999().value() * k);
            s.bar(x0, y + 4, b99, 14, "on");
            s.bar(x0, y + 22, b999, 14, c.p999().value() > PERIOD_US ? "bad" : "hot");
            s.text(x0 + b99 + 4, y + 15, n(c.p99().value()) + (c.p99().mine() ? "" : " (typical)"), "start", "on");
            s.text(x0 + b999 + 4, y + 33, n(c.p999().value()) + (c.p999().value() * k > w ? " (off scale)" : ""), "start", "hot");
            if (c.p999().value() > PERIOD_US) hot.add(c.label());
        }
        s.line(x0 + PERIOD_US * k, 30, x0 + PERIOD_US * k, 236, "bad");
        s.text(x0 + PERIOD_US * k, 252, n(PERIOD_US) + " us: the next launch is due", "middle", "bad");
        return s.render("Lateness at p99 and p99.9 in the four conditions against the " + n(PERIOD_US) + " us period"
                + (hot.isEmpty() ? "" : "; past it at p99.9: " + String.join(", ", hot)));
    }
}
