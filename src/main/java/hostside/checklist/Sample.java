package hostside.checklist;

import java.util.List;
import java.util.Map;

import hostside.gpu.nvml.NvmlActivity;
import hostside.process.LoadAvg;
import hostside.process.ProcStat;
import hostside.process.Pressure;

/**
 * What one tick of the sampler read. A part that could not be read is null (empty for the
 * maps and lists), and the sampling's unknowns say why.
 *
 * @param atNanos  on the sampler's {@link Ticker}
 * @param pressure by resource, where the kernel has PSI
 * @param process  the watched process; null once it has exited
 */
public record Sample(long atNanos, LoadAvg load, Map<Pressure.Resource, Pressure> pressure, ProcStat stat, DiskStats disks, NetDev net,
                     ProcessLook process, List<NvmlActivity> gpus) {

    public Sample {
        pressure = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(pressure));
        gpus = List.copyOf(gpus);
    }

    Sample withGpus(List<NvmlActivity> readings) {
        return new Sample(atNanos, load, pressure, stat, disks, net, process, readings);
    }
}
