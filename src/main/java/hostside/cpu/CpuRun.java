package hostside.cpu;

import hostside.machine.Host;

/** One run of Module 3. */
public record CpuRun(Host machine, CpuDrill.Measured measured, java.util.List<String> verdicts) {}
