package hostside.report;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Figure;
import hostside.cpu.CpuRun;
import hostside.io.IoRun;
import hostside.machine.MachineRun;
import hostside.vm.VmRun;

/** The report's flat list of typed figures (docs/contract.md, Typed figures): every drill's, in module order. */
final class Figures {
    private Figures() {}

    static List<Figure> of(MachineRun machine, VmRun vm, CpuRun cpu, IoRun io) {
        List<Figure> all = new ArrayList<>();
        all.addAll(machine.figures());
        if (vm != null) all.addAll(vm.figures());
        if (cpu != null) all.addAll(cpu.figures());
        if (io != null) all.addAll(io.figures());
        return distinct(all);
    }

    /** One figure per key and scope, the first: a result one drill reused from another (the pin costs) is listed once. */
    static List<Figure> distinct(List<Figure> all) {
        java.util.Set<List<Object>> seen = new java.util.HashSet<>();
        return all.stream().filter(f -> seen.add(List.of(f.key(), f.scope()))).toList();
    }
}
