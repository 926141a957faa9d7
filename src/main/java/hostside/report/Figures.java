package hostside.report;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Figure;

/** The report's flat list of typed figures (CONTRACT.md, Typed figures): every drill's, in module order. */
final class Figures {
    private Figures() {}

    static List<Figure> of(hostside.machine.MachineRun machine, hostside.vm.VmRun vm, hostside.cpu.CpuRun cpu, hostside.io.IoRun io) {
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
