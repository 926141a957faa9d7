package hostside.cpu;

import java.util.List;

import hostside.cpu.facts.CpuFacts;
import hostside.machine.Finding;
import hostside.machine.Host;

/**
 * One run of Module 3.
 *
 * @param findings  what the facts mean (IRQs on feeder CPUs, governors, quotas...)
 * @param verdicts  what the measurements mean, one line each
 */
public record CpuRun(Host machine, CpuFacts facts, List<Finding> findings, CpuDrill.Measured measured, List<String> verdicts) {}
