package hostside.machine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.container.AvailableMemory;
import hostside.core.CpuSet;
import hostside.core.Finding;
import hostside.fs.FsRoot;
import hostside.gpu.bench.AllGpus;
import hostside.gpu.bench.Copies;
import hostside.gpu.bench.GpuBench;
import hostside.gpu.bench.LaunchCost;
import hostside.gpu.bench.NodeCopies;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.bench.Target;
import hostside.gpu.cuda.Cuda;
import hostside.gpu.cuda.CudaException;
import hostside.gpu.cuda.CudaFacts;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.gpu.nvml.NvmlFacts;
import hostside.gpu.nvml.NvmlReader;
import hostside.gpu.peer.PeerAccess;
import hostside.gpu.peer.PeerAccessReader;
import hostside.gpu.peer.PeerCopies;
import hostside.harness.DrillTarget;
import hostside.harness.MemoryCap;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.TestCase;
import hostside.process.MachineLoad;

/**
 * The GPU half of Module 1 (and Module 5's copy engine vs SM comparison): what the CUDA driver
 * says about each GPU, and the copy measurements, each GPU in turn. On a recorded machine, or
 * without a driver or a GPU, it says why nothing ran; that is not an error.
 */
public final class GpuDrill {
    private GpuDrill() {}

    /**
     * @param notRun   why nothing was measured or read from the driver, "" when it ran
     * @param cuda     the driver's facts, null when it could not be read
     * @param nvml     what NVML says (links, clocks, NVLink, fabric), or why it could not be asked; null on a recording
     * @param runs     one per GPU measured
     * @param allGpus  the copies on every GPU at once, and between GPUs (those not run on a machine of one GPU)
     * @param peers    what the driver says of each ordered pair of GPUs (cuDeviceCanAccessPeer, P2P attributes);
     *                 empty with one GPU
     */
    public record GpuSection(String notRun, CudaFacts cuda, NvmlFacts nvml, List<GpuRun> runs, List<Result> allGpus,
                             List<PeerAccess> peers) {
        public GpuSection {
            runs = List.copyOf(runs);
            allGpus = List.copyOf(allGpus);
            peers = List.copyOf(peers);
        }

        public static GpuSection notRun(String why, NvmlFacts nvml) {
            return new GpuSection(why, null, nvml, List.of(), List.of(), List.of());
        }
    }

    /** The test cases that run on all GPUs together: the host copies of every GPU at once, then the peer-to-peer ones. */
    public static List<TestCase<List<Target>>> allGpuTests() {
        List<TestCase<List<Target>>> all = new ArrayList<>(List.of(new AllGpus(true), new AllGpus(false)));
        all.addAll(PeerCopies.all());
        return all;
    }

    /**
     * One GPU's results and what they mean.
     *
     * @param verdicts      what the results mean: a finding of one of {@link GpuRules}' rules each (a
     *                      report from before findings were typed holds lines of text, read as info
     *                      findings of no rule)
     * @param linkUnderLoad the PCIe link as sysfs reads while copies run (an idle GPU may have
     *                      downtrained it); null when the idle link was already at its maximum
     *                      or could not be read
     */
    public record GpuRun(String gpu, String pciAddress, List<Result> results, List<Finding> verdicts, PciLink linkUnderLoad) {
        public GpuRun {
            verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
        }
    }

    /**
     * Every GPU test case, in the order they run. The launch costs from each kind of core and the
     * copies from each NUMA node come last and are named here without their cores and nodes:
     * {@link #forGpu} gives them the machine's and the GPU's own.
     */
    public static List<TestCase<Target>> tests() {
        List<TestCase<Target>> all = new ArrayList<>(Copies.all());
        all.addAll(SmAccess.all());
        all.add(new LaunchCost());
        all.add(new NodeCopies());
        return all;
    }

    /**
     * The cores a launch's host cost is measured from: on a hybrid CPU one per kind (the memory
     * plan's CPU of each), the big kind's first, since its cost is the case's figure; on a uniform
     * CPU the plan's one-thread CPU, kind "uniform". Empty when no CPU is known.
     */
    static List<LaunchCost.Core> launchCores(MemoryPlan plan) {
        if (plan.cpus().isEmpty()) return List.of();
        if (plan.kinds().isEmpty()) return List.of(new LaunchCost.Core(LaunchCost.UNIFORM, plan.oneThreadCpu()));
        List<LaunchCost.Core> cores = new ArrayList<>();
        plan.kinds().stream().filter(k -> k.cpu() == plan.oneThreadCpu()).forEach(k -> cores.add(new LaunchCost.Core(k.name(), k.cpu())));
        plan.kinds().stream().filter(k -> k.cpu() != plan.oneThreadCpu()).forEach(k -> cores.add(new LaunchCost.Core(k.name(), k.cpu())));
        return cores;
    }

    /** Each core kind's CPUs among the plan's, for the taskset line of a verdict; by the kinds' names. */
    static Map<String, CpuSet> kindCpus(Topology t, MemoryPlan plan) {
        Map<String, CpuSet> by = new LinkedHashMap<>();
        for (Topology.CoreKind k : t.coreKinds()) {
            CpuSet mine = k.cpus().and(plan.cpus());
            if (!mine.isEmpty()) by.put(k.name(), mine);
        }
        return by;
    }

    /**
     * The nodes a GPU's host copies are measured from: each node with CPUs and memory (the memory
     * plan's per-node runs); on a machine of one such node, that node (the plan's cell where CPUs and
     * memory are the same node). Empty when no node with CPUs is known.
     */
    static List<NodeCopies.From> copyNodes(MemoryPlan plan) {
        if (!plan.nodes().isEmpty()) return plan.nodes().stream().map(n -> new NodeCopies.From(n.id(), n.cpus())).toList();
        return plan.pairs().stream().filter(p -> p.cpuNode() == p.memoryNode() && !p.cpus().isEmpty()).limit(1)
                .map(p -> new NodeCopies.From(p.cpuNode(), p.cpus())).toList();
    }

    /**
     * One GPU's cases: the launch costs told the cores and whether this is the first GPU (the only one
     * they run on), the copies from each node told the nodes and the GPU's own node, and moved after
     * the others (whatever order --only named them in), so that they start from a GPU the other
     * copies have already warmed and leave the usual figures as they always ran.
     */
    static List<TestCase<Target>> forGpu(List<TestCase<Target>> tests, List<NodeCopies.From> nodes, Integer ownNode,
                                         List<LaunchCost.Core> cores, boolean firstGpu) {
        List<TestCase<Target>> mine = new ArrayList<>(tests.stream().filter(t -> !(t instanceof NodeCopies))
                .map(t -> t instanceof LaunchCost l ? l.from(cores, firstGpu) : t).toList());
        tests.stream().filter(t -> t instanceof NodeCopies).map(t -> ((NodeCopies) t).from(nodes, ownNode)).forEach(mine::add);
        return mine;
    }

    /**
     * A GPU in MIG mode is partitioned: a copy would measure one slice, or fail, so its rows say
     * so instead (a normal state of a machine, not an error).
     */
    static java.util.Optional<String> migReason(NvmlFacts nvml, String pciAddress) {
        if (nvml == null || !nvml.ran()) return java.util.Optional.empty();
        return nvml.gpus().stream().filter(n -> pciAddress.equals(n.pciBusId()) && Boolean.TRUE.equals(n.migEnabled())).findFirst()
                .map(n -> "MIG mode is on: the GPU is split into instances; measure one through its MIG UUID (CUDA_VISIBLE_DEVICES)");
    }

    /**
     * Reads the link's current speed and width from sysfs while host-to-device copies keep it
     * busy: GPUs drop to a low speed when idle, so only a reading under load says whether the
     * link really runs below its maximum (DOMAIN.md).
     */
    public static PciLink linkUnderLoad(FsRoot fs, GpuBench bench, String address, PciLink idle) {
        // Only a link below its maximum needs the second look (and the 64 MiB of pinned memory).
        if (idle == null || !(idle.belowMaxSpeed() || idle.belowMaxWidth())) return null;
        long bytes = 64L << 20;
        try (HostBuffer host = HostBuffer.pinned(bench.cuda, bytes);
             DeviceBuffer dev = bench.gpu.alloc(bytes)) {
            for (int i = 0; i < 32; i++) bench.stream.copyHostToDevice(dev, host, bytes); // about 40 ms at Gen5
            String dir = "/sys/bus/pci/devices/" + address;
            Double speed = PciLink.parseSpeed(fs.text(dir + "/current_link_speed").orElse(null));
            Integer width = PciLink.parseWidth(fs.text(dir + "/current_link_width").orElse(null));
            bench.stream.synchronize();
            return new PciLink(speed, width, idle.maxSpeedGTs(), idle.maxWidth());
        } catch (CudaException e) {
            return null;
        }
    }

    /**
     * Reads the driver's facts and runs the cases on each GPU. {@code load}: the machine's as the
     * drill began (null where not read): a busy one makes the measured findings unknown.
     */
    public static GpuSection run(FsRoot fs, MachineFacts facts, List<TestCase<Target>> tests,
                                 List<TestCase<List<Target>>> together, MemoryCap hostCap, ProgressSink progress, MachineLoad load) {
        if (!fs.isLive()) return GpuSection.notRun(Runner.RECORDED, null);
        NvmlFacts nvml = NvmlReader.read();
        Cuda.Open open = Cuda.open();
        if (open instanceof Cuda.Open.NotRun n) return GpuSection.notRun(n.why(), nvml);
        Cuda cuda = ((Cuda.Open.Ready) open).cuda();
        CudaFacts cf;
        try {
            cf = CudaFacts.read(cuda);
        } catch (CudaException e) {
            return GpuSection.notRun("the CUDA driver could not describe its GPUs: " + e.getMessage(), nvml);
        }
        List<GpuRun> runs = new ArrayList<>();
        // pinned buffers are charged to this process's memory cgroup: its room bounds them, not only the host's
        long hostAvailable = AvailableMemory.read(fs).orElse(4L << 30);
        MemoryPlan plan = MemoryPlan.of(facts.topology());
        List<NodeCopies.From> nodes = copyNodes(plan);
        List<LaunchCost.Core> cores = launchCores(plan);
        Map<String, CpuSet> kindCpus = kindCpus(facts.topology(), plan);
        List<String> busy = MachineLoad.busyReasons(load);
        for (CudaFacts.CudaGpu g : cf.gpus()) {
            java.util.Optional<PciDevice> device = facts.pci().stream().filter(d -> d.address().equals(g.pciAddress())).findFirst();
            String label = device.map(PciDevice::label).orElse("cuda" + g.ordinal());
            // a launch's host cost is the CPU's and the driver's, not the GPU's: measured from the first GPU only
            List<TestCase<Target>> mine = forGpu(tests, nodes, device.map(PciDevice::numaNode).orElse(null), cores, g == cf.gpus().getFirst());
            if (tests.isEmpty()) {
                runs.add(new GpuRun(label, g.pciAddress(), List.of(), List.of(), null));
                continue;
            }
            java.util.Optional<String> mig = migReason(nvml, g.pciAddress());
            if (mig.isPresent()) {
                runs.add(new GpuRun(label, g.pciAddress(), mine.stream().map(t -> Result.notRun(t, mig.get())).toList(),
                        List.of(), null));
                continue;
            }
            try (GpuBench bench = new GpuBench(cuda, g.ordinal())) {
                Target target = new Target(bench, hostAvailable, bench.memory()[0], hostCap);
                List<Result> results = Runner.run(mine, target, progress.on(label));
                PciLink link = device.map(PciDevice::link).orElse(null);
                List<Finding> verdicts = new ArrayList<>(CopyVerdicts.of(label, results, link, busy));
                verdicts.addAll(LaunchVerdicts.of(results, kindCpus, busy));
                runs.add(new GpuRun(label, g.pciAddress(), results, verdicts, linkUnderLoad(fs, bench, g.pciAddress(), link)));
            } catch (CudaException e) {
                // In use by another process with exclusive compute mode, or in MIG mode without a
                // MIG device: a state of the machine, named as such.
                List<Result> failed = mine.stream().map(t -> Result.notRun(t, e.getMessage())).toList();
                runs.add(new GpuRun(label, g.pciAddress(), failed, List.of(unusable(label, e.getMessage())), null));
            }
        }
        return new GpuSection("", cf, nvml, runs, allGpus(fs, cuda, cf, hostAvailable, hostCap, together, progress), peers(cuda));
    }

    /** What a GPU the driver would not let the drill use says in place of its copies: nothing of them is judged. */
    static Finding unusable(String label, String why) {
        return GpuRules.GPU_UNUSED.unknown(label, label + " could not be used: " + why, List.of());
    }

    /** Each pair's peer facts; a driver that cannot even name its GPUs' addresses leaves them out (the pairs' matrix says so). */
    private static List<PeerAccess> peers(Cuda cuda) {
        try {
            return PeerAccessReader.read(cuda);
        } catch (CudaException e) {
            return List.of();
        }
    }

    /** Runs the all-GPU cases when the selection includes them (or is everything). */
    private static List<Result> allGpus(FsRoot fs, Cuda cuda, CudaFacts cf, long hostAvailable, MemoryCap hostCap, List<TestCase<List<Target>>> tests,
                                        ProgressSink progress) {
        try (EveryGpu every = new EveryGpu(cuda, cf, hostAvailable, hostCap)) {
            return Runner.run(fs, tests, every, progress);
        } catch (CudaException e) {
            return tests.stream().map(t -> Result.notRun(t, e.getMessage())).toList();
        }
    }

    /**
     * A bench on every GPU, made only when an all-GPU case runs: a quick report skips them all, and the
     * benches for nothing were part of the 0.18 s the group's start took in an H100 VM's stamped quick
     * report. Every GPU shares the host's memory: each gets its share of the quarter, and of the cap.
     */
    private static final class EveryGpu implements DrillTarget<List<Target>> {
        private final Cuda cuda;
        private final CudaFacts cf;
        private final long hostAvailable;
        private final MemoryCap hostCap;
        private final List<GpuBench> benches = new ArrayList<>();

        EveryGpu(Cuda cuda, CudaFacts cf, long hostAvailable, MemoryCap hostCap) {
            this.cuda = cuda;
            this.cf = cf;
            this.hostAvailable = hostAvailable;
            this.hostCap = hostCap;
        }

        @Override
        public List<Target> make() {
            for (CudaFacts.CudaGpu g : cf.gpus()) benches.add(new GpuBench(cuda, g.ordinal()));
            return benches.stream().map(b -> Target.sharing(b, hostAvailable, b.memory()[0], hostCap, benches.size())).toList();
        }

        @Override
        public void close() {
            for (GpuBench b : benches) b.close();
        }
    }
}
