package hostside.report;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Figure;
import hostside.core.Scope;
import hostside.harness.Result;

/** The report's flat list of typed figures (CONTRACT.md, Typed figures): every drill's, in module order. */
final class Figures {
    private Figures() {}

    static List<Figure> of(hostside.machine.MachineRun machine, hostside.vm.VmRun vm, hostside.cpu.CpuRun cpu, hostside.io.IoRun io) {
        List<Figure> all = new ArrayList<>();
        for (var r : machine.gpu().runs()) all.addAll(Result.figures(r.results(), Scope.gpu(r.pciAddress())));
        all.addAll(Result.figures(machine.gpu().allGpus(), Scope.MACHINE));
        if (vm != null) all.addAll(vm.figures());
        if (cpu != null) all.addAll(cpu.figures());
        if (io != null) all.addAll(io.figures());
        return all;
    }
}
