package hostside.learn.m6;

import static hostside.learn.m6.PlatformPlacement.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import hostside.core.Units;
import hostside.learn.Inputs;
import hostside.learn.Svg;
import hostside.report.platforms.Placement;
import hostside.report.platforms.Platforms;
import hostside.report.platforms.Platforms.Platform;

/** The placement stepper's drawings: the machine's card, the classes narrowing, each axis, the closest platform and the floor. */
final class PlacementDrawings {
    private PlacementDrawings() {}

    enum Step { CLASS, GPU, DOMAIN }

    /** The machine's facts and axes, one line each. */
    static String card(Machine m, String basis) {
        Svg g = new Svg(W, H);
        g.box(10, 10, 620, 36, (m.typical() ? "typical machine: " : "this machine: ") + m.gpuWords() + ", " + m.linkWords(), m.typical() ? "dim" : "hot");
        double y = 72;
        g.text(20, y, "class: " + className(m.axes().link()) + "; NVLink domain: " + m.axes().domain() + " GPU" + (m.axes().domain() == 1 ? "" : "s") + " (fabric " + m.fabric() + ")", "start", "on");
        for (Axis a : AXES) {
            y += 30;
            Inputs.Value v = a.mine().apply(m);
            g.text(20, y, a.name() + ":", "start", "on");
            g.text(200, y, v == null ? "unknown: " + m.missing().get(a.name()) : Units.sig3(v.value()) + " " + a.unit() + " (" + v.source().words.replaceFirst(",.*", "") + ")",
                    "start", v == null ? "dim" : v.mine() ? "hot" : "dim");
        }
        if (!basis.isEmpty()) g.text(10, 250, "typical figures, not this machine", "start", "dim");
        return g.render("What the placement reads: " + m.gpuWords() + ", " + m.linkWords());
    }

    /** The platforms in three columns, one per link class; the candidates still standing lit. */
    static String classes(List<Platform> all, List<Platform> inClass, List<Platform> kept, Machine m, Step step, String basis) {
        Svg g = new Svg(W, H);
        List<String> order = List.of("pcie", "integrated", "c2c");
        for (int c = 0; c < order.size(); c++) {
            String cls = order.get(c);
            double x = 10 + c * 210;
            boolean mine = cls.equals(m.axes().link());
            g.text(x + 100, 20, className(cls) + (mine ? (m.typical() ? " (the typical machine)" : " (this machine)") : ""), "middle", mine ? "hot" : "dim");
            int i = 0;
            for (Platform p : all) {
                if (!p.link().equals(cls)) continue;
                String second = switch (step) {
                    case CLASS -> p.linkDetail().length() > 28 ? p.linkDetail().substring(0, p.linkDetail().indexOf(',') > 0 ? p.linkDetail().indexOf(',') : 28) : p.linkDetail();
                    case GPU -> "GPU: " + (p.gpuNames().isEmpty() ? "no name in the data" : String.join(", ", p.gpuNames()));
                    case DOMAIN -> p.domain() + " GPU" + (p.domain() == 1 ? "" : "s") + " in its NVLink domain";
                };
                String state = !inClass.contains(p) ? "dim" : step == Step.CLASS ? "on" : kept.contains(p) ? "ok" : "dim";
                g.box(x, 30 + i * 52, 200, 46, p.name() + "\n" + second, state);
                i++;
            }
        }
        if (!basis.isEmpty()) g.text(10, 250, "a typical machine, not this one", "start", "dim");
        String what = switch (step) {
            case CLASS -> "the link class leaves " + names(inClass);
            case GPU -> "the same GPU leaves " + names(kept);
            case DOMAIN -> "the nearest NVLink domain leaves " + names(kept);
        };
        return g.render("The reference platforms by link class: " + what);
    }

    /** One axis on a log scale: every platform with a figure on it, the candidates lit, the machine hot. */
    static String axis(Axis a, List<Platform> all, List<Platform> kept, Machine m, String basis) {
        Svg g = new Svg(W, H);
        g.text(10, 22, a.name() + (a.unit().startsWith("cores") ? "" : ", " + a.unit()) + ", log scale", "start", "on");
        Inputs.Value v = a.mine().apply(m);
        List<Double> xs = new ArrayList<>();
        for (Platform p : all) if (a.ref().apply(p).known()) xs.add(a.ref().apply(p).value());
        if (v != null) xs.add(v.value());
        double lo = xs.stream().mapToDouble(d -> d).min().orElse(1) / 1.6, hi = xs.stream().mapToDouble(d -> d).max().orElse(10) * 1.6;
        double x0 = 40, x1 = 600, y = 170;
        Function<Double, Double> at = d -> x0 + (x1 - x0) * (Math.log(d) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
        g.line(x0, y, x1, y, "on");
        // ticks at 1, 2 and 5 of each decade inside the range
        for (double dec = Math.pow(10, Math.floor(Math.log10(lo))); dec <= hi; dec *= 10) {
            for (double k : new double[] {1, 2, 5}) {
                double t = dec * k;
                if (t < lo || t > hi) continue;
                g.line(at.apply(t), y - 4, at.apply(t), y + 4, "dim");
                g.text(at.apply(t), y + 18, Units.sig3(t), "middle", "dim");
            }
        }
        // platforms of one figure share a dot and a label
        Map<Double, List<Platform>> by = new java.util.TreeMap<>();
        List<String> none = new ArrayList<>();
        for (Platform p : all) {
            Platforms.Tagged t = a.ref().apply(p);
            if (!t.known()) none.add(shortName(p));
            else by.computeIfAbsent(t.value(), k -> new ArrayList<>()).add(p);
        }
        int i = 0;
        for (var e : by.entrySet()) {
            boolean lit = e.getValue().stream().anyMatch(kept::contains);
            double x = at.apply(e.getKey()), ly = 140 - 22 * (i % 4);
            g.line(x, ly + 4, x, y - 6, "dim");
            g.dot(x, y, 6, lit ? "on" : "dim");
            String label = String.join(", ", e.getValue().stream().map(PlatformPlacement::shortName).toList()) + ": " + Units.sig3(e.getKey())
                    + " " + String.join("/", e.getValue().stream().map(p -> a.ref().apply(p).tag()).distinct().toList());
            g.text(x, ly, label, x < 160 ? "start" : x > 480 ? "end" : "middle", lit ? "on" : "dim");
            i++;
        }
        if (v != null) {
            double x = at.apply(v.value());
            g.dot(x, y, 7, "hot");
            g.text(x, y + 38, (m.typical() ? "typical machine: " : "this machine: ") + Units.sig3(v.value()) + " " + a.unit(), x < 160 ? "start" : x > 480 ? "end" : "middle", "hot");
        } else {
            g.text(320, y + 38, (m.typical() ? "the typical machine" : "this machine") + ": no figure (" + m.missing().get(a.name()) + ")", "middle", "hot");
        }
        if (!none.isEmpty()) g.text(10, 248, "not known (?): " + String.join(", ", none), "start", "dim");
        if (!basis.isEmpty()) g.text(630, 248, "a typical machine, not this one", "end", "dim");
        return g.render(a.name() + " on a log scale: " + (v == null ? "no figure here" : "this machine at " + Units.sig3(v.value()) + " " + a.unit())
                + (basis.isEmpty() ? "" : " (typical)"));
    }

    /** The closest platform beside the machine, axis by axis, with each axis's share of the distance. */
    static String closestCard(Machine m, Platform best, Placement p, Map<Axis, Double> terms, String basis) {
        Svg g = new Svg(W, H);
        g.text(10, 22, "Closest: " + best.name() + " (" + best.linkDetail() + ")", "start", "ok");
        g.text(630, 250, "S spec, M measured, T third party, ? not known", "end", "dim");
        g.text(200, 50, m.typical() ? "typical machine" : "this machine", "middle", "hot");
        g.text(340, 50, best.name(), "middle", "ok");
        g.text(500, 50, "|ln ratio|", "middle", "on");
        double y = 78;
        g.text(10, y, "NVLink domain", "start", "on");
        g.text(200, y, m.axes().domain() + " GPU" + (m.axes().domain() == 1 ? "" : "s"), "middle", "hot");
        g.text(340, y, best.domain() + " GPU" + (best.domain() == 1 ? "" : "s"), "middle", "ok");
        g.text(500, y, best.domain() == m.axes().domain() ? "same" : "a key, not an axis", "middle", "dim");
        double total = 0;
        for (Axis a : AXES) {
            y += 28;
            Inputs.Value v = a.mine().apply(m);
            Platforms.Tagged r = a.ref().apply(best);
            g.text(10, y, a.name() + ", " + a.unit().replace(" per GPU", "").replace(" per direction", ""), "start", "on");
            g.text(200, y, v == null ? "unknown" : Units.sig3(v.value()), "middle", v == null ? "dim" : "hot");
            g.text(340, y, r.known() ? Units.sig3(r.value()) + " (" + r.tag() + ")" : "not known (?)", "middle", r.known() ? "ok" : "dim");
            Double t = terms.get(a);
            if (t != null) {
                total += t;
                g.bar(450, y - 12, Math.min(120, 120 * t / Math.log(4)), 14, t >= Math.log(1.05) ? "hot" : "ok");
                g.text(580, y, Units.sig3(t), "start", "on");
            } else g.text(500, y, "left out", "middle", "dim");
        }
        y += 30;
        g.line(10, y - 18, 630, y - 18, "dim");
        g.text(10, y, "distance, summed over the axes both have", "start", "on");
        g.text(580, y, Units.sig3(total), "start", "on");
        if (!basis.isEmpty()) g.text(10, 250, "a typical machine, not this one", "start", "dim");
        return g.render("Closest: " + best.name() + ", because " + p.because());
    }

    /**
     * The class's host-to-device figure, its floor at 0.75 of a measured copy (hostside's own rule), and the machine's figure,
     * coloured above or below only where it was judged ({@code judged} false: the report's M1-CLASS-FLOOR is unknown).
     */
    static String floorDrawing(Platform best, Double floor, Inputs.Value h, String basis, boolean judged) {
        Svg g = new Svg(W, H);
        g.text(10, 22, "Host to device, GB/s: " + best.name() + "'s figure and its floor", "start", "on");
        Platforms.Tagged ref = best.hostToDevice();
        double max = Math.max(ref.known() ? ref.value() : 0, h == null ? 0 : h.value());
        if (max <= 0) {
            g.text(320, 130, "no figure on either side: no floor to hold against", "middle", "dim");
        } else {
            double scale = 300 / max;
            if (ref.known()) {
                g.text(10, 76, best.name(), "start", "on");
                g.bar(180, 60, scale * ref.value(), 24, "dim");
                g.text(186 + scale * ref.value(), 77, gbs(ref.value()) + " (" + ref.tag() + ")", "start", "on");
            }
            if (h != null) {
                boolean ok = floor == null || h.value() >= floor;
                String look = !judged ? "on" : ok ? "ok" : "bad";
                g.text(10, 136, basis.isEmpty() ? "this machine" : "typical machine", "start", "on");
                g.bar(180, 120, scale * h.value(), 24, look);
                g.text(186 + scale * h.value(), 137, gbs(h.value()), "start", look);
                if (!judged) g.text(10, 225, "not judged: the report's " + Placement.CLASS_FLOOR.id() + " is unknown", "start", "dim");
            } else {
                g.text(10, 136, "this machine: not measured", "start", "dim");
            }
            if (floor != null) {
                double x = 180 + scale * floor;
                g.line(x, 48, x, 160, "hot");
                g.text(x, 180, "floor 0.75 x " + Units.sig3(ref.value()) + " = " + gbs(floor), "middle", "hot");
            } else {
                g.text(10, 200, "no floor: " + best.name() + "'s host to device is " + (ref.known() ? "tagged " + ref.tag() + ", not a measured copy" : "not known (?)"), "start", "dim");
            }
        }
        if (!basis.isEmpty()) g.text(10, 250, "a typical machine, not this one", "start", "dim");
        return g.render("Host to device against the class floor" + (floor == null ? ": no floor" : " of " + gbs(floor)));
    }
}
