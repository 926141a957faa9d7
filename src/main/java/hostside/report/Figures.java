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
        if (vm != null) {
            all.addAll(Result.figures(vm.host(), Scope.MACHINE));
            all.addAll(Result.figures(vm.gpu().results(), Scope.MACHINE));
        }
        if (cpu != null) {
            all.addAll(Result.figures(cpu.measured().results(), Scope.MACHINE));
            all.addAll(Result.figures(cpu.dataloader(), Scope.MACHINE));
        }
        if (io != null) {
            Scope dir = io.file() == null ? Scope.MACHINE : Scope.dir(java.nio.file.Path.of(io.file().path()).getParent().toString());
            all.addAll(Result.figures(io.results(), dir));
        }
        return all;
    }
}
