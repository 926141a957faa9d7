package hostside.learn.m1;

import static hostside.learn.m1.H2dCopy.*;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Units;
import hostside.learn.Inputs;
import hostside.learn.Svg;

/** The copy stepper's drawings: the host and the GPU with the copy's path, the bars, the batch timeline and the advice. */
final class CopyDrawings {
    private CopyDrawings() {}

    enum Step { START, STAGE, DMA, PINNED }

    /** The host (CPU, the tensor, the driver's staging buffer), the link and the GPU, lit for one step. */
    static String scene(Step s, Link link, String gpu, String node, Inputs.Value pinned, Inputs.Value pageable) {
        Svg g = new Svg(W, H);
        boolean staged = link.pcie() && (s == Step.STAGE || s == Step.DMA);
        boolean pinnedTensor = s == Step.PINNED;
        boolean cpuBusy = s == Step.STAGE && link.pcie();
        g.box(10, 30, 280, 190, "", "on");
        g.text(20, 48, "Host: CPU and DRAM, NUMA node " + (node.startsWith("unknown") ? "unknown" : node.split(",")[0]), "start", "on");
        g.box(20, 62, 130, 44, cpuBusy ? "CPU: memcpy\nchunk by chunk" : "CPU\nfree", cpuBusy ? "hot" : "dim");
        g.box(20, 150, 130, 50, "1 GiB tensor\n" + (pinnedTensor ? "pinned" : "pageable"), pinnedTensor ? "ok" : "on");
        // only a PCIe copy from pageable memory is staged: on C2C and integrated there is no staging buffer to draw
        if (link.pcie()) g.box(165, 150, 115, 50, "staging buffer\npinned, driver's", staged ? "on" : "dim");
        g.box(450, 30, 180, 190, "", "on");
        g.text(460, 48, shortGpu(gpu), "start", "on");
        g.box(460, 62, 160, 44, "copy engine (DMA)", s == Step.DMA || s == Step.PINNED ? "hot" : "dim");
        g.box(460, 150, 160, 50, "GPU memory\n" + (s == Step.START ? "empty" : s == Step.STAGE ? "waiting" : "1 GiB arriving"), "on");
        // the link between them, its name above the line and its limit below
        g.line(290, 125, 450, 125, link.integrated() ? "dim" : "on");
        g.text(370, 118, link.integrated() ? "one shared memory" : link.words(), "middle", "on");
        if (link.max() != null) g.text(370, 140, Units.sig3(link.max().value()) + " GB/s max" + (link.mine() ? "" : " (typical)"), "middle", link.mine() ? "on" : "dim");
        else if (link.c2c()) g.text(370, 140, "per-GPU limit not known (?)", "middle", "dim");
        switch (s) {
            case START -> g.text(320, 250, "pageable: " + Units.sig3(pageable.value()) + " GB/s, pinned: " + Units.sig3(pinned.value()) + " GB/s"
                    + (pinned.mine() && pageable.mine() ? " (measured here)" : " (typical)"), "middle", "dim");
            case STAGE -> {
                if (link.pcie()) g.arrow(150, 175, 165, 175, "", "hot").text(150, 222, "memcpy by the CPU", "middle", "hot");
                else g.arrow(150, 185, 460, 185, link.c2c() ? "the GPU reads in place (ATS)" : "same memory", "ok");
            }
            case DMA -> {
                if (link.pcie()) g.arrow(280, 185, 460, 185, "DMA, each chunk", "hot");
                else g.arrow(150, 185, 460, 185, "pageable copy", "hot");
                g.text(320, 250, "pageable end to end: " + Units.sig3(pageable.value()) + " GB/s" + (pageable.mine() ? " (measured here)" : " (typical)"), "middle", "bad");
            }
            case PINNED -> {
                g.line(85, 200, 85, 238, "hot").line(85, 238, 540, 238, "hot").arrow(540, 238, 540, 202, "", "hot");
                g.text(310, 232, "DMA straight from the tensor: " + Units.sig3(pinned.value()) + " GB/s" + (pinned.mine() ? " (measured here)" : " (typical)"), "middle", "ok");
            }
        }
        return g.render(title(s) + ": host memory, the " + (link.integrated() ? "shared memory" : link.words() + " link") + " and " + shortGpu(gpu));
    }

    private static String title(Step s) {
        return switch (s) {
            case START -> "A 1 GiB tensor in pageable host memory";
            case STAGE -> "Pageable copy, first step";
            case DMA -> "Pageable copy, the DMA";
            case PINNED -> "Pinned copy";
        };
    }

    private static String shortGpu(String gpu) {
        String s = gpu.replaceFirst("^(the|a|an) ", "");
        return s.length() > 26 ? s.substring(0, 26) : s;
    }

    /** A labelled horizontal bar. */
    record Bar(String label, double value, String text, String cls) {}

    static String bars(String heading, List<Bar> bars, String basis) {
        Svg g = new Svg(W, H);
        g.text(10, 22, heading, "start", "on");
        double max = bars.stream().mapToDouble(Bar::value).max().orElse(1);
        double y = 48;
        for (Bar b : bars) {
            double w = max <= 0 ? 0 : 300 * b.value() / max;
            g.text(10, y + 16, b.label(), "start", "on");
            g.bar(220, y, w, 24, b.cls());
            g.text(226 + w, y + 16, b.text(), "start", b.cls());
            y += 44;
        }
        if (!basis.isEmpty()) g.text(10, 250, "typical figures, not this machine", "start", "dim");
        return g.render(heading + ": " + String.join(", ", bars.stream().map(b -> b.label() + " " + b.text()).toList()));
    }

    static String timeline(Inputs.Value pinned, Inputs.Value pageable, double batchPinned, double batchPageable, String basis) {
        Svg g = new Svg(W, H);
        g.text(10, 22, "A 10 GB batch, host to device: time on the copy", "start", "on");
        double max = Math.max(batchPinned, batchPageable), scale = 380 / max;
        g.line(150, 60, 150, 180, "dim");
        g.text(10, 86, "pinned, " + Units.sig3(pinned.value()) + " GB/s", "start", "on");
        g.bar(150, 70, scale * batchPinned, 26, "ok");
        g.text(156 + scale * batchPinned, 88, time(batchPinned), "start", "ok");
        g.text(10, 146, "pageable, " + Units.sig3(pageable.value()) + " GB/s", "start", "on");
        g.bar(150, 130, scale * batchPageable, 26, "bad");
        g.text(156 + scale * batchPageable, 148, time(batchPageable), "start", "bad");
        g.line(150, 180, 530, 180, "dim");
        g.text(150, 198, "0 s", "middle", "dim");
        g.text(530, 198, time(max), "middle", "dim");
        if (!basis.isEmpty()) g.text(10, 250, "typical figures, not this machine", "start", "dim");
        return g.render("A 10 GB batch takes " + time(batchPinned) + " pinned and " + time(batchPageable) + " pageable");
    }

    static String advice(double batchPinned, double batchPageable, String basis) {
        Svg g = new Svg(W, H);
        g.box(10, 20, 620, 120, "", "on");
        List<String> code = new ArrayList<>(List.of(
                "loader = DataLoader(ds, batch_size=256, num_workers=8, pin_memory=True)",
                "for x, y in loader:",
                "    x = x.to('cuda', non_blocking=True)   # queued on the copy engine",
                "    y = y.to('cuda', non_blocking=True)   # the step's kernels overlap it"));
        // SVG folds runs of spaces: the indentation is kept with no-break spaces
        for (int i = 0; i < code.size(); i++) g.text(24, 46 + 24 * i, code.get(i).replace(' ', '\u00a0'), "start", "on");
        g.text(10, 170, "10 GB from pinned memory: " + time(batchPinned) + "; from pageable: " + time(batchPageable), "start", batchPinned <= batchPageable ? "ok" : "bad");
        g.text(10, 196, "Pin once, reuse: pinning costs far more than one copy.", "start", "on");
        if (!basis.isEmpty()) g.text(10, 250, "typical figures, not this machine", "start", "dim");
        return g.render("What to do: pin_memory=True in the DataLoader and non_blocking copies");
    }
}
