package hostside.checklist;

import java.util.ArrayList;
import java.util.List;

import hostside.process.Pressure;
import hostside.process.TaskState;

/**
 * What the verdict rules look at, taken from the sections: a flat record so that each rule can be
 * tested with a handful of figures. A figure the window could not give is null (a recorded
 * machine has no rates), and the rules that need it stay silent.
 *
 * @param snapshot        one moment of a recorded machine: no rates
 * @param psiCpuSome      percent of the window (or the kernel's avg10 without a window)
 * @param oomVictims      "python3 (4321)" of each OOM kill in the last hour
 * @param xids            Xid runs in the last hour
 * @param hardwareErrors  MCE and EDAC reports in the last hour
 * @param hungTasks       hung-task reports in the last hour, and one of them
 * @param crashes         crashes of the watched process or those below it, in the last hour
 * @param hostBusy        the machine's CPUs, percent busy
 * @param busy            threads of the process and processes below it, busiest first
 * @param processCpu      the process and those below it together, percent of one CPU
 * @param gilShare        the main process's threads that each used at least 10%, when together
 *                        they used about one CPU and none used it alone
 * @param blockedThreads  threads of the process in D state in at least half the samples
 * @param gpusNotRead     why NVML was not asked, or null
 * @param gpus            the GPUs the process uses (all, when NVML names none of its PIDs)
 */
record Signals(boolean snapshot, Integer cpus, Double runnable, Double psiCpuSome, Double psiMemorySome, Double psiMemoryFull,
               Double psiIoFull, List<String> oomVictims, List<KernelSection.EventUse> xids, int hardwareErrors, int hungTasks,
               String hungExample, List<KernelSection.EventUse> crashes, Double iowait, Double steal, Double hostBusy, List<Busy> busy,
               Double processCpu, int gilShare, int blockedThreads, List<Disk> disks, String gpusNotRead, List<Gpu> gpus) {

    Signals {
        oomVictims = List.copyOf(oomVictims);
        xids = List.copyOf(xids);
        crashes = List.copyOf(crashes);
        busy = List.copyOf(busy);
        disks = List.copyOf(disks);
        gpus = List.copyOf(gpus);
    }

    /** A thread of the process, or a process below it (a worker, all its threads together), and the CPU it last ran on. */
    record Busy(String name, long id, double cpuPercent, Integer lastCpu, boolean worker) {}

    record Disk(String name, double utilPercent, double readBytesPerSecond, double writeBytesPerSecond) {}

    /** @param reasons clocks event reasons other than idle, with the share of samples they were set in */
    record Gpu(int index, Double utilPercent, List<Reason> reasons, Double powerWatts, Double powerLimitWatts, Double smClockMhz,
               Integer smClockMaxMhz) {
        Gpu {
            reasons = List.copyOf(reasons);
        }
    }

    record Reason(String name, double share) {}

    /** The share of the main process's CPU that makes a thread count towards a GIL pattern. */
    static final double GIL_THREAD_PERCENT = 10;

    static Signals of(boolean snapshot, LoadSection load, KernelSection kernel, CpuSection cpu, ProcessSection proc, IoSection io,
                      GpuSection gpu) {
        Double cpuSome = psi(load, Pressure.Resource.CPU, true), memSome = psi(load, Pressure.Resource.MEMORY, true),
                memFull = psi(load, Pressure.Resource.MEMORY, false), ioFull = psi(load, Pressure.Resource.IO, false);
        List<String> victims = new ArrayList<>();
        List<KernelSection.EventUse> xids = new ArrayList<>(), crashes = new ArrayList<>();
        int hw = 0, hung = 0;
        String hungExample = null;
        for (KernelSection.EventUse e : kernel.events()) {
            int recent = KernelSection.recentCount(e);
            if (recent == 0) continue;
            switch (e.kind()) {
                case OOM_KILL -> victims.add(e.process() + " (" + e.pid() + ")");
                case XID -> xids.add(e);
                case MCE, EDAC -> hw += recent;
                case HUNG_TASK -> {
                    hung += recent;
                    if (hungExample == null) hungExample = e.process() + " (" + e.pid() + ")";
                }
                case SEGFAULT -> crashes.add(e);
            }
        }
        List<Busy> busy = new ArrayList<>();
        Double processCpu = null;
        int gil = 0, blocked = 0;
        if (proc != null) {
            for (ProcessSection.ThreadUse t : proc.threadList()) {
                if (t.cpuPercent() != null) busy.add(new Busy(t.name(), t.tid(), t.cpuPercent(), t.lastCpu(), false));
                if (t.stateShares().getOrDefault(TaskState.DISK_SLEEP, 0.0) >= 0.5) blocked++;
            }
            for (ProcessSection.ChildUse c : proc.children().list()) {
                if (c.cpuPercent() != null) busy.add(new Busy(c.comm(), c.pid(), c.cpuPercent(), c.lastCpu(), true));
            }
            busy.sort((a, b) -> Double.compare(b.cpuPercent(), a.cpuPercent()));
            if (proc.cpuPercent() != null) {
                processCpu = proc.cpuPercent() + (proc.children().cpuPercent() == null ? 0 : proc.children().cpuPercent());
                gil = gilShare(proc);
            }
        }
        List<Disk> disks = io == null ? List.of()
                : io.disks().stream().map(d -> new Disk(d.name(), d.utilPercent(), d.readBytesPerSecond(), d.writeBytesPerSecond())).toList();
        return new Signals(snapshot, load.cpus(), load.procsRunning() == null ? null : load.procsRunning().mean(), cpuSome, memSome,
                memFull, ioFull, victims, xids, hw, hung, hungExample, crashes, cpu == null ? null : cpu.all().iowait(),
                cpu == null ? null : cpu.all().steal(), cpu == null ? null : cpu.all().busy(), busy, processCpu, gil, blocked,
                disks, gpu.notRead(), gpus(gpu));
    }

    /** The window's share where there is a window, else the kernel's own 10-second average. */
    private static Double psi(LoadSection load, Pressure.Resource resource, boolean some) {
        LoadSection.PressureUse p = load.pressure().get(resource);
        if (p == null) return null;
        Double window = some ? p.someWindowPercent() : p.fullWindowPercent();
        return window != null ? window : some ? Double.valueOf(p.someAvg10()) : p.fullAvg10();
    }

    /**
     * Python's GIL lets one thread run at a time: a main process whose busy threads add up to
     * about one CPU while none holds it alone is bound by one core as surely as a single hot thread.
     */
    private static int gilShare(ProcessSection proc) {
        List<ProcessSection.ThreadUse> busy = proc.threadList().stream()
                .filter(t -> t.cpuPercent() != null && t.cpuPercent() >= GIL_THREAD_PERCENT).toList();
        double sum = busy.stream().mapToDouble(ProcessSection.ThreadUse::cpuPercent).sum();
        boolean oneCpu = sum >= Verdicts.THREAD_BUSY_PERCENT && sum <= 100 + GIL_THREAD_PERCENT;
        boolean noneAlone = busy.stream().allMatch(t -> t.cpuPercent() < Verdicts.THREAD_BUSY_PERCENT);
        return busy.size() >= 2 && oneCpu && noneAlone ? busy.size() : 0;
    }

    /** The GPUs the process runs on; all of them when NVML names none of its PIDs (a container's PIDs differ from NVML's). */
    private static List<Gpu> gpus(GpuSection gpu) {
        List<GpuSection.GpuUse> mine = gpu.gpus().stream().filter(GpuSection.GpuUse::usedByProcess).toList();
        List<GpuSection.GpuUse> pick = mine.isEmpty() ? gpu.gpus() : mine;
        return pick.stream().map(g -> new Gpu(g.index(), g.utilPercent(),
                g.clocksEventReasons().entrySet().stream().filter(e -> !e.getKey().equals(GpuSection.IDLE_REASON))
                        .map(e -> new Reason(e.getKey(), e.getValue())).toList(),
                g.powerWatts(), g.powerLimitWatts(), g.smClockMhz(), g.smClockMaxMhz())).toList();
    }
}
