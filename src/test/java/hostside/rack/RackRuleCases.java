package hostside.rack;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Better;
import hostside.core.CpuSet;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.cpu.facts.CpuFacts;
import hostside.cpu.facts.CpuFactsReader;
import hostside.gpu.nvml.NvmlGpu;
import hostside.harness.Result;
import hostside.harness.Status;
import hostside.machine.KernelCmdline;
import hostside.machine.MachineReader;
import hostside.machine.MemoryDrill;
import hostside.memory.MemoryCases;
import hostside.vm.VmDrill;
import hostside.vm.facts.VmFacts;

/** Rows the recorded machines do not reach: the live items' cases, and facts of the recordings changed one at a time. */
final class RackRuleCases {
    private RackRuleCases() {}

    /** The live rows, one per case of {@link RackLiveChecksTest}. */
    static List<RackCheck> live() {
        List<RackCheck> out = new ArrayList<>();
        var healthy = RackLiveChecksTest.HEALTHY;
        out.add(RackLiveChecks.persistence(List.of(RackLiveChecksTest.gpu(0, true, healthy, null, null))));
        out.add(RackLiveChecks.persistence(List.of(RackLiveChecksTest.gpu(0, false, healthy, null, null))));
        out.add(RackLiveChecks.persistence(List.of(RackLiveChecksTest.gpu(0, null, healthy, null, null))));
        out.add(RackLiveChecks.fabricState(List.of(RackLiveChecksTest.gpu(0, true, healthy, null, null))));
        out.add(RackLiveChecks.fabricState(List.of(RackLiveChecksTest.gpu(0, true,
                RackLiveChecksTest.fabric(NvmlGpu.Fabric.State.IN_PROGRESS, null, null, null, null), null, null))));
        out.add(RackLiveChecks.fabricState(List.of(RackLiveChecksTest.gpu(0, true, null, null, null))));
        out.add(RackLiveChecks.readiness(List.of(RackLiveChecksTest.ready(0))));
        out.add(RackLiveChecks.readiness(List.of(RackLiveChecksTest.noChannel(0, 1))));
        out.add(RackLiveChecks.nvls(List.of(RackLiveChecksTest.ready(0))));
        out.add(RackLiveChecks.nvls(List.of(RackLiveChecksTest.noChannel(0, null))));
        Platform gh200 = new Platform(Platform.Kind.GRACE_HOPPER, "test");
        NvmlGpu.C2c up = new NvmlGpu.C2c(NvmlGpu.C2c.Mode.ENABLED, 1, List.of(new NvmlGpu.C2cLink(0, true, 225_000L)));
        out.add(RackLiveChecks.c2c(gh200, List.of(RackLiveChecksTest.gpu(0, true, healthy, null, up)), null));
        out.add(RackLiveChecks.c2c(gh200, List.of(RackLiveChecksTest.gpu(0, true, healthy, null, new NvmlGpu.C2c(NvmlGpu.C2c.Mode.DISABLED, null, null))), null));
        return out;
    }

    /** A record with one component replaced: a recording's facts with one fact changed. */
    @SuppressWarnings("unchecked")
    static <R extends Record> R with(R r, String component, Object value) {
        try {
            var comps = r.getClass().getRecordComponents();
            Object[] args = new Object[comps.length];
            Class<?>[] types = new Class<?>[comps.length];
            boolean found = false;
            for (int i = 0; i < comps.length; i++) {
                types[i] = comps[i].getType();
                if (comps[i].getName().equals(component)) {
                    args[i] = value;
                    found = true;
                } else {
                    args[i] = comps[i].getAccessor().invoke(r);
                }
            }
            if (!found) throw new IllegalArgumentException(r.getClass().getSimpleName() + " has no " + component);
            var ctor = r.getClass().getDeclaredConstructor(types);
            ctor.setAccessible(true);
            return (R) ctor.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    static RackChecklist.Inputs inputs(String machine) {
        var fs = RackFixturesTest.open(machine);
        var m = MachineReader.read(fs);
        var rf = RackFactsReader.read(fs, m);
        return new RackChecklist.Inputs(Platform.of(m, rf), m, VmDrill.DRILL.facts(fs), CpuFactsReader.read(fs, m), rf, null, null);
    }

    static RackChecklist.Inputs rack(RackChecklist.Inputs in, RackFacts rf) {
        return new RackChecklist.Inputs(Platform.of(in.machine(), rf), in.machine(), in.vm(), in.cpu(), rf, in.memory(), in.live());
    }

    static MemoryDrill.Measured triad(Scope scope, double... gbs) {
        var r = new Result(MemoryCases.TRIAD, "STREAM Triad", Status.OK, "",
                Unit.GB_PER_S, Stats.of(gbs), Better.HIGHER, "", null, null);
        return new MemoryDrill.Measured(scope, "triad", r);
    }

    /** Rows of the recordings with one fact changed, each reaching a severity the recordings do not. */
    static List<RackCheck> synthetic() {
        List<RackCheck> out = new ArrayList<>();
        var gh = inputs("gh200-numa");
        var vm = gh.vm();
        // base page size not read; THP not read, not built in, 'always' with 512 MiB pages
        out.add(MemoryChecks.basePageSize(new RackChecklist.Inputs(gh.platform(), gh.machine(), with(vm, "pageSize", null), gh.cpu(), gh.rack(), null, null)));
        out.add(MemoryChecks.thp(new RackChecklist.Inputs(gh.platform(), gh.machine(), with(vm, "thp", null), gh.cpu(), gh.rack(), null, null)));
        out.add(MemoryChecks.thp(new RackChecklist.Inputs(gh.platform(), gh.machine(), with(vm, "thp", with(vm.thp(), "status", "not built into this kernel")),
                gh.cpu(), gh.rack(), null, null)));
        var always = with(vm.thp(), "enabled", new VmFacts.Setting("always", List.of("always", "madvise", "never")));
        out.add(MemoryChecks.thp(new RackChecklist.Inputs(gh.platform(), gh.machine(), with(vm, "thp", always), gh.cpu(), gh.rack(), null, null)));
        // init_on_alloc=1 on the command line; NUMA balancing unreadable
        var cmd = new ArrayList<>(gh.machine().kernelCmdline());
        cmd.add(new KernelCmdline.Item("init_on_alloc=1", "memory", ""));
        out.add(MemoryChecks.initOnAlloc(new RackChecklist.Inputs(gh.platform(), with(gh.machine(), "kernelCmdline", cmd), vm, gh.cpu(), gh.rack(), null, null)));
        var noCmd = with(gh.machine(), "kernelCmdline", gh.machine().kernelCmdline().stream().filter(i -> !i.text().startsWith("numa_balancing")).toList());
        out.add(MemoryChecks.numaBalancing(new RackChecklist.Inputs(gh.platform(), noCmd, with(vm, "sysctl", null), gh.cpu(), gh.rack(), null, null)));
        // a GPU memory node offline; no driver params and no GPU memory node read
        var offline = gh.rack().gpuNuma().stream().map(g -> with(g, "status", "offline")).toList();
        out.add(MemoryChecks.gpuMemoryMode(rack(gh, with(gh.rack(), "gpuNuma", offline))));
        out.add(MemoryChecks.gpuMemoryMode(rack(gh, with(with(gh.rack(), "gpuNuma", List.of()), "driverParams", null))));
        // no NUMA nodes read; a GPU with no locality
        var noNodes = with(gh.machine(), "topology", with(gh.machine().topology(), "numaNodes", List.of()));
        out.add(MemoryChecks.nodeRoles(new RackChecklist.Inputs(gh.platform(), noNodes, vm, gh.cpu(), gh.rack(), null, null)));
        out.add(PlacementChecks.binding(new RackChecklist.Inputs(gh.platform(), noNodes, vm, gh.cpu(), gh.rack(), null, null)));
        var gb = inputs("gb200-tray");
        var gbGpus = RackChecklist.nvidiaGpus(gb);
        var pci = new ArrayList<>(gb.machine().pci());
        pci.replaceAll(d -> d.address().equals(gbGpus.getFirst().address()) ? with(with(d, "numaNode", null), "localCpus", null) : d);
        out.add(PlacementChecks.binding(new RackChecklist.Inputs(gb.platform(), with(gb.machine(), "pci", pci), gb.vm(), gb.cpu(), gb.rack(), null, null)));
        // this process's placement, live: everywhere, far from GPU0, unreadable
        var live = with(gb.rack(), "live", true);
        java.util.function.Function<CpuFacts.ProcessCpus, RackCheck> placed = p -> PlacementChecks.processPlacement(
                new RackChecklist.Inputs(Platform.of(gb.machine(), live), gb.machine(), gb.vm(), with(gb.cpu(), "process", p), live, null, null));
        out.add(placed.apply(new CpuFacts.ProcessCpus("4242", CpuSet.parseList("0-143"), null, CpuSet.parseList("0-1"), null)));
        out.add(placed.apply(new CpuFacts.ProcessCpus("4242", CpuSet.parseList("72-143"), null, CpuSet.parseList("1"), null)));
        out.add(placed.apply(null));
        // no IOMMU reading; no power/control read
        out.add(HostChecks.iommu(new RackChecklist.Inputs(gh.platform(), with(gh.machine(), "iommu", null), vm, gh.cpu(), gh.rack(), null, null)));
        out.add(HostChecks.pciPower(rack(gh, with(gh.rack(), "pciPower", java.util.Map.of()))));
        // the fabric manager: missing, out of sight, installed and not enabled
        var hgx = inputs("hgx-h100");
        var fm = hgx.rack().fabricManager();
        out.add(FabricChecks.fabricManager(rack(hgx, with(hgx.rack(), "fabricManager", new RackFacts.FabricManager(fm.nvswitches(), "", false, false)))));
        out.add(FabricChecks.fabricManager(rack(hgx, with(hgx.rack(), "hostHidden", "PID 2 is sleep, not kthreadd"))));
        out.add(FabricChecks.fabricManager(rack(hgx, with(hgx.rack(), "fabricManager", new RackFacts.FabricManager(fm.nvswitches(), "nvidia-fabricmanager.service", false, null)))));
        // IMEX: no channel device class; a channel and a running daemon
        var x = gb.rack().imex();
        out.add(FabricChecks.imex(rack(gb, with(gb.rack(), "imex", new RackFacts.Imex(null, x.channels(), x.config(), x.nodesConfig(), x.daemon())))));
        out.add(FabricChecks.imex(rack(gb, with(gb.rack(), "imex", new RackFacts.Imex(x.major() == null ? 234 : x.major(), List.of("channel0"), true, true, true)))));
        // memory bandwidth, live: above the 480 GB Grace's 288 GB/s, below it, at it; on a PCIe machine
        var gbLive = new RackChecklist.Inputs(Platform.of(gb.machine(), live), gb.machine(), gb.vm(), gb.cpu(), live, null, null);
        java.util.function.Function<MemoryDrill.Measured, RackCheck> bw = t -> MemoryChecks.memoryBandwidth(new RackChecklist.Inputs(
                gbLive.platform(), gbLive.machine(), gbLive.vm(), gbLive.cpu(), gbLive.rack(), new MemoryDrill.MemorySection("", null, List.of(t)), null));
        out.add(bw.apply(triad(Scope.node(0), 300, 310, 320)));
        out.add(bw.apply(triad(Scope.node(0), 200, 210, 220)));
        out.add(bw.apply(triad(Scope.node(0), 280, 285, 295)));
        var h = inputs("hgx-h100");
        var hLive = with(h.rack(), "live", true);
        out.add(MemoryChecks.memoryBandwidth(new RackChecklist.Inputs(Platform.of(h.machine(), hLive), h.machine(), h.vm(), h.cpu(), hLive,
                new MemoryDrill.MemorySection("", null, List.of(triad(Scope.MACHINE, 200, 210, 220))), null)));
        return out;
    }
}
