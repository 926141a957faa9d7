package hostside.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.core.BadInputException;
import hostside.machine.MachineDrill;

@Command(name = "machine", mixinStandardHelpOptions = true,
        header = "How the box is wired, and what copies to the GPUs cost.",
        description = {"Module 1: packages, cores, core kinds, caches, NUMA nodes and their distances, the PCIe tree with link speeds, GPU/NIC affinity (in nvidia-smi topo -m terms), the IOMMU and the kernel options that matter.",
                "Then the CPU's memory: STREAM's bandwidth with every CPU, one thread and per NUMA node, the read bandwidth and idle latency of each (CPU node, memory node) pair, and one thread on each kind of core.",
                "Then each GPU's view of host memory and the copy measurements: pinned against pageable memory, copy engine against SMs, latency and a size sweep."})
public final class MachineCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Mixin
    MeasureOptions measure;

    @picocli.CommandLine.Option(names = "--stream-array", paramLabel = "BYTES", converter = ByteSize.class,
            description = "Each of STREAM's three arrays (e.g. 610M, to match a STREAM built with 80,000,000 elements). Default: four times the last-level caches, within a quarter of the available memory.")
    Long streamArray;
    static final long MIN_STREAM_ARRAY = 1L << 20;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (!measure.list && streamArray != null && streamArray < MIN_STREAM_ARRAY) {
            throw new BadInputException("--stream-array: " + streamArray + " bytes is under 1 MiB: STREAM's arrays are there to outgrow the caches");
        }
        return DrillCommand.run(spec, options, measure, MachineDrill.DRILL, new MachineDrill.Options(streamArray));
    }

}
