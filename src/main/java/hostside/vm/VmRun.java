package hostside.vm;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Scope;
import hostside.core.Unit;
import hostside.doc.Document;
import hostside.harness.DrillRun;
import hostside.harness.Result;
import hostside.machine.Host;
import hostside.vm.facts.VmFacts;
import hostside.vm.measure.AnonTouch;
import hostside.vm.measure.FileRead;

/**
 * One run of Module 2. Its JSON reads back into an equal run ({@link hostside.harness.DetailTypes}
 * registered with the drill's cases first); the keys {@link #json()} derives are skipped on reading.
 *
 * @param machine   the host's name, kernel, architecture and whether it is a VM
 * @param facts     what the kernel does with virtual memory here
 * @param findings  what the facts mean for training (settings)
 * @param host      the host measurements
 * @param gpu       the GPU's view of host memory, and its measurements
 * @param verdicts  what the measurements mean: a finding of one of {@link VmRules}' each (a report of an earlier
 *                  version wrote lines, read back as info findings of no rule)
 */
@JsonIgnoreProperties({"schema", "kind", "figures", "load"}) // derived, or (load) set beside it by the command line
public record VmRun(Host machine, VmFacts facts, List<Finding> findings, List<Result> host, VmGpu gpu, List<Finding> verdicts) implements DrillRun {

    /** The JSON of this run, under the schema name hostside/2 (docs/schema): what {@code hostside vm --json} prints and the report embeds. */
    @Override
    public com.fasterxml.jackson.databind.node.ObjectNode json() {
        return Json.document("vm", this, figures());
    }

    /** The settings' findings, then the measured ones (slow first touches, huge pages not forming). */
    @Override
    public List<Finding> conclusions() {
        return DrillRun.both(findings, verdicts);
    }

    @Override
    public Document document() {
        return VmDocument.of(this);
    }

    /**
     * Every figure this run measured, typed (docs/contract.md, Typed figures): the file reads about the
     * folder of their test file, the other host cases about the machine, the GPU cases about the GPU
     * they ran on; and, after the case they come from, the first touch's cost per fault and the THP
     * case's share of huge pages, the figures a fleet compares that live in those details.
     */
    @Override
    public List<Figure> figures() {
        List<Figure> out = new ArrayList<>();
        for (Result r : host) {
            Scope scope = r.detail() instanceof FileRead.FileDetail f ? Scope.dir(f.dir().toString()) : Scope.MACHINE;
            r.figure(scope).ifPresent(out::add);
            if (r.isOk() && r.value() != null && r.detail() instanceof AnonTouch.TouchDetail d) out.addAll(touchFigures(r, d));
        }
        out.addAll(gpu.figures());
        return out;
    }

    /**
     * The first touch's own headline figures: microseconds per fault (the time's median, min and max
     * over the median count of faults: the count hardly varies, the time does), and for the THP case
     * the share of the region AnonHugePages showed (the median of the samples; its spread is not kept).
     */
    static List<Figure> touchFigures(Result r, AnonTouch.TouchDetail d) {
        List<Figure> out = new ArrayList<>();
        if (d.usPerFault() != null && r.value().median() > 0) {
            double us = d.usPerFault(), perMs = us / r.value().median();
            // min and max scaled alike; clamped, since the scaled median may miss us by a rounding
            out.add(new Figure(r.key() + "_us_per_fault", Scope.MACHINE, us, Unit.US, Better.LOWER, Math.min(us, r.value().min() * perMs),
                    Math.max(us, r.value().max() * perMs), r.value().samples(), "the first touch's time over the faults getrusage(RUSAGE_THREAD) counted", null));
        }
        if (d.hugePercent() != null) {
            out.add(new Figure(r.key() + "_huge_percent", Scope.MACHINE, d.hugePercent(), Unit.PERCENT, Better.HIGHER, d.hugePercent(),
                    d.hugePercent(), r.value().samples(), "AnonHugePages of the touched region in /proc/self/smaps, median of the samples", null));
        }
        return out;
    }
}
