package hostside.checklist;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntConsumer;

import hostside.cpu.dataloader.ProcMemory;
import hostside.core.BadInputException;
import hostside.fs.FsRoot;
import hostside.core.GarbageException;
import hostside.fs.Read;
import hostside.core.Finding;
import hostside.machine.MachineFacts;
import hostside.process.TaskStat;

/**
 * Gathers one checklist: checks the PID, samples the window, reads what is read once (memory,
 * cgroup, kernel log), and turns it into sections and verdicts.
 *
 * <p>On a recorded machine ({@code --root}) it takes one snapshot instead of refusing: the
 * contract says every drill takes --root and measures nothing there, and half of this checklist
 * is facts of a moment that stay true in a recording (load averages, PSI's own 10/60/300-second
 * averages, the process's threads, states, memory, cgroup and CPUs). Rates need two readings:
 * those are reported as not measured, and the GPUs and the kernel log, which belong to this
 * machine and not the recorded one, as not read.
 */
public final class ChecklistRun {
    static final String KIND = "checklist";

    private ChecklistRun() {}

    /** This machine over a window; a recorded one in one snapshot. */
    public static Checklist run(FsRoot fs, long pid, int seconds, Ticker ticker, GpuFeed gpus, IntConsumer onSample) throws InterruptedException {
        return run(fs, pid, seconds, fs.isLive(), ticker, gpus, onSample);
    }

    /**
     * @param live    sample over a window (this machine, or a test's /proc rewritten between
     *                ticks); else one snapshot, with no rates, GPUs or kernel log
     * @param seconds the window; ignored for a snapshot
     * @param gpus    the GPUs to read; ignored for a snapshot
     */
    static Checklist run(FsRoot fs, long pid, int seconds, boolean live, Ticker ticker, GpuFeed gpus, IntConsumer onSample)
            throws InterruptedException {
        TaskStat start = existing(fs, pid);
        String cgroup = cgroup(fs, pid);
        long startedAt = ticker.epochMillis();
        int count = live ? (int) (seconds * 1000L / Sampler.INTERVAL.toMillis()) + 1 : 1;
        GpuFeed feed = live ? gpus : GpuFeed.none("a recorded machine: NVML answers for this machine's GPUs, not the recorded one's");
        Sampler.Sampling sampling = Sampler.run(fs, pid, count, Sampler.INTERVAL, ticker, feed, onSample);
        if (sampling.samples().isEmpty()) throw new BadInputException("PID " + pid + ": no such process (it exited as sampling began)");
        List<Sample> samples = sampling.samples();
        Sample last = samples.getLast();

        Map<Long, ProcMemory.Look> memory = new HashMap<>();
        if (sampling.exited()) {
            memory.put(pid, new ProcMemory.Look.Vanished(pid, "exited"));
        } else {
            memory.put(pid, ProcMemory.look(fs, pid, 0));
            for (long child : last.process().children().keySet()) memory.put(child, ProcMemory.look(fs, child, 0));
        }
        Set<Long> family = new HashSet<>();
        family.add(pid);
        for (Sample s : samples) {
            family.addAll(s.process().threads().keySet());
            family.addAll(s.process().children().keySet());
        }
        KernelLog log = KernelLog.read(fs);

        LoadSection load = LoadSection.of(samples);
        KernelSection kernel = KernelSection.of(log, family);
        CpuSection cpu = CpuSection.of(samples.getFirst(), last);
        ProcessSection proc = ProcessSection.of(samples, memory, cgroup);
        IoSection io = IoSection.of(samples.getFirst(), last, wholeDisks(fs));
        Set<Long> processes = new HashSet<>(last.process().children().keySet());
        processes.add(pid);
        GpuSection gpu = GpuSection.of(feed.gpus(), feed.notRead(), samples, processes);
        List<Finding> verdicts = Verdicts.of(Signals.of(!live, load, kernel, cpu, proc, io, gpu));

        double window = Rates.seconds(samples.getFirst(), last);
        List<String> notes = new ArrayList<>();
        Double exitedAfter = null;
        if (sampling.exited()) {
            exitedAfter = Rates.round((sampling.exitedAtNanos() - samples.getFirst().atNanos()) / 1e9, 1);
            notes.add("PID " + pid + " exited " + exitedAfter + " s into the window: the figures cover the " + Rates.round(window, 1)
                    + " s before" + (samples.size() < 2 ? " (one sample: no rates)" : ""));
        }
        String noRates = live ? samples.size() < 2 ? "one sample before the process exited" : null
                : "a recorded machine is one moment: rates (CPU, disks, network, threads, faults, I/O) need two readings";
        if (!live) notes.add("one snapshot of " + fs.describe() + ": " + noRates);
        if (gpu.notRead() == null && gpu.gpus().stream().noneMatch(GpuSection.GpuUse::usedByProcess)
                && gpu.gpus().stream().anyMatch(g -> !g.processes().isEmpty())) {
            notes.add("NVML lists compute processes, none of them this one or below it (in a container NVML gives the host's PIDs)");
        }
        List<String> unknowns = new ArrayList<>(new TreeSet<>(sampling.unknowns()));
        if (gpus.closeProblem() != null) unknowns.add("GPUs: " + gpus.closeProblem());
        return new Checklist(MachineFacts.SCHEMA, KIND, pid, start.comm(),
                new Checklist.Window(live ? Checklist.Mode.LIVE : Checklist.Mode.SNAPSHOT, live ? java.time.Instant.ofEpochMilli(startedAt).toString() : null, Rates.round(window, 2), samples.size(), Sampler.INTERVAL.toMillis(), exitedAfter, noRates),
                verdicts.getFirst(), verdicts, notes, load, kernel, cpu, proc, io, gpu, unknowns);
    }

    /** The process as it is now; a PID that is not there (or only a zombie) is the user's mistake. */
    public static TaskStat existing(FsRoot fs, long pid) {
        if (pid <= 0) throw new BadInputException("PID " + pid + ": not a process ID");
        String where = fs.isLive() ? "" : " in " + fs.describe();
        Read r = fs.read("/proc/" + pid + "/stat");
        if (!(r instanceof Read.Ok ok)) throw new BadInputException("PID " + pid + ": no such process" + where);
        TaskStat s;
        try {
            s = TaskStat.parse(ok.text());
        } catch (GarbageException e) {
            throw new BadInputException("/proc/" + pid + "/stat" + where + ": " + e.getMessage());
        }
        if (s.exited()) throw new BadInputException("PID " + pid + ": has exited (a zombie waiting for its parent)" + where);
        return s;
    }

    /**
     * The cgroup that holds the CPU controller: the v1 "cpu" hierarchy's path where there is one
     * (on a hybrid machine the v2 tree has no CPU controller), else the v2 path ("0::/path"),
     * else the first v1 hierarchy's.
     */
    static String cgroup(FsRoot fs, long pid) {
        List<String> lines = fs.text("/proc/" + pid + "/cgroup").map(t -> t.lines().toList()).orElse(List.of());
        String v1cpu = null, v2 = null, any = null;
        for (String l : lines) {
            String[] f = l.split(":", 3);
            if (f.length < 3) continue;
            if (f[0].equals("0") && f[1].isEmpty()) v2 = f[2];
            else if (v1cpu == null && List.of(f[1].split(",")).contains("cpu")) v1cpu = f[2] + " (v1 cpu)";
            else if (any == null) any = f[2] + " (v1 " + f[1] + ")";
        }
        return v1cpu != null ? v1cpu : v2 != null ? v2 : any;
    }

    /** The whole disks: /sys/block's entries ('/' in a device name is '!' there). */
    static Set<String> wholeDisks(FsRoot fs) {
        return new HashSet<>(fs.list("/sys/block"));
    }
}
