package hostside.checklist;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import hostside.fs.FsRoot;
import hostside.process.Pressure;
import hostside.testing.RecordedMachine;

/**
 * A recorded /proc in a temp folder that a test rewrites between samples: the machine's counters
 * (/proc/stat, loadavg, PSI, diskstats, net/dev, uptime) and processes with their threads, in the
 * kernel's own formats. A fresh box is a 4-CPU machine with nothing running.
 */
final class ProcBox extends RecordedMachine<ProcBox> {
    static final int CPUS = 4;
    /** Ticks of each CPU: {user, nice, system, idle, iowait, irq, softirq, steal}. */
    final long[][] cpu = new long[CPUS][8];
    long ctxt = 1_000_000, running = 1, blocked = 0;

    ProcBox(Path root) {
        super(root);
        put("/proc/loadavg", "0.50 0.40 0.30 1/200 1000\n").put("/proc/uptime", "10000.00 30000.00\n");
        for (Pressure.Resource r : Pressure.Resource.values()) psi(r.json(), 0, 0, 0, 0);
        put("/proc/diskstats", "");
        put("/proc/net/dev", "Inter-|   Receive |  Transmit\n face |bytes packets|bytes packets\n");
        for (long[] c : cpu) c[3] = 100_000;
        dir("/sys/block");
        writeStat();
    }

    FsRoot fs() {
        return FsRoot.open(root.toString());
    }

    /** Adds ticks to CPU {@code n}: {user, nice, system, idle, iowait, irq, softirq, steal}. */
    ProcBox tick(int n, long... add) {
        for (int i = 0; i < add.length; i++) cpu[n][i] += add[i];
        return this;
    }

    ProcBox switches(long add) {
        ctxt += add;
        return this;
    }

    ProcBox running(long r, long b) {
        running = r;
        blocked = b;
        return this;
    }

    ProcBox writeStat() {
        StringBuilder sb = new StringBuilder("cpu ");
        for (int i = 0; i < 8; i++) {
            int col = i;
            sb.append(' ').append(Arrays.stream(cpu).mapToLong(c -> c[col]).sum());
        }
        sb.append(" 0 0\n");
        for (int n = 0; n < CPUS; n++) {
            sb.append("cpu").append(n).append(' ').append(Arrays.stream(cpu[n]).mapToObj(Long::toString).collect(Collectors.joining(" "))).append(" 0 0\n");
        }
        sb.append("intr 1 0 0\nctxt ").append(ctxt).append("\nbtime 1764680000\nprocesses 999\nprocs_running ").append(running)
                .append("\nprocs_blocked ").append(blocked).append('\n');
        return put("/proc/stat", sb.toString());
    }

    ProcBox psi(String resource, double someAvg10, long someTotal, double fullAvg10, long fullTotal) {
        String line = "%s avg10=%.2f avg60=0.00 avg300=0.00 total=%d\n";
        return put("/proc/pressure/" + resource, String.format(Locale.ROOT, line, "some", someAvg10, someTotal)
                + String.format(Locale.ROOT, line, "full", fullAvg10, fullTotal));
    }

    /** A whole disk (listed in /sys/block) with its counters; sectors are 512 bytes. */
    ProcBox disk(String name, long reads, long sectorsRead, long readMs, long writes, long sectorsWritten, long writeMs, long ioMs) {
        dir("/sys/block/" + name);
        String line = String.format(Locale.ROOT, " 259 0 %s %d 0 %d %d %d 0 %d %d 0 %d %d 0 0 0 0 0 0%n", name, reads, sectorsRead, readMs,
                writes, sectorsWritten, writeMs, ioMs, readMs + writeMs);
        return put("/proc/diskstats", line);
    }

    ProcBox net(String name, long rxBytes, long rxPackets, long txBytes, long txPackets, long rxDrops) {
        return put("/proc/net/dev", "Inter-|   Receive |  Transmit\n face |bytes packets|bytes packets\n"
                + String.format(Locale.ROOT, "%6s: %d %d 0 %d 0 0 0 0 %d %d 0 0 0 0 0 0%n", name, rxBytes, rxPackets, rxDrops, txBytes, txPackets));
    }

    /** A stat line as the kernel writes it: fields 3 to 52, with the ones the checklist reads set. */
    static String stat(long pid, String comm, char state, long ppid, long minflt, long majflt, long utime, long stime, long threads,
                       long start, int cpu) {
        long[] f = new long[53]; // f[n] is field n
        f[4] = ppid;
        f[10] = minflt;
        f[12] = majflt;
        f[14] = utime;
        f[15] = stime;
        f[18] = 20;
        f[20] = threads;
        f[22] = start;
        f[39] = cpu;
        StringBuilder sb = new StringBuilder().append(pid).append(" (").append(comm).append(") ").append(state);
        for (int n = 4; n <= 52; n++) sb.append(' ').append(f[n]);
        return sb.append('\n').toString();
    }

    /** A process's own files (its main thread is a task of its own: {@link #thread}). */
    ProcBox process(long pid, long ppid, String comm, char state, long minflt, long majflt, long utime, long stime, long threads, int cpu) {
        String dir = "/proc/" + pid;
        put(dir + "/stat", stat(pid, comm, state, ppid, minflt, majflt, utime, stime, threads, 5000, cpu));
        put(dir + "/status", "Name:\t" + comm + "\nState:\t" + state + " (x)\nTgid:\t" + pid + "\nPPid:\t" + ppid + "\nThreads:\t" + threads
                + "\nVmRSS:\t   20480 kB\nCpus_allowed_list:\t0-3\nvoluntary_ctxt_switches:\t0\nnonvoluntary_ctxt_switches:\t0\n");
        put(dir + "/cgroup", "0::/job.slice/train.scope\n");
        return put(dir + "/smaps_rollup", "55d0-7ffd ---p 00000000 00:00 0 [rollup]\nRss:  20480 kB\nPss:  10240 kB\nShared_Clean: 4096 kB\n"
                + "Shared_Dirty: 0 kB\nPrivate_Clean: 1024 kB\nPrivate_Dirty: 15360 kB\nSwap: 0 kB\n");
    }

    ProcBox thread(long pid, long tid, String comm, char state, long utime, long stime, int cpu, long voluntary, long involuntary) {
        String dir = "/proc/" + pid + "/task/" + tid;
        put(dir + "/stat", stat(tid, comm, state, 1, 0, 0, utime, stime, 1, 5000, cpu));
        put(dir + "/children", "");
        return put(dir + "/status", "Name:\t" + comm + "\nState:\t" + state + " (x)\nvoluntary_ctxt_switches:\t" + voluntary
                + "\nnonvoluntary_ctxt_switches:\t" + involuntary + "\n");
    }

    ProcBox children(long pid, long tid, long... kids) {
        return put("/proc/" + pid + "/task/" + tid + "/children", Arrays.stream(kids).mapToObj(k -> k + " ").collect(Collectors.joining()));
    }

    ProcBox io(long pid, long rchar, long wchar, long readBytes, long writeBytes) {
        return put("/proc/" + pid + "/io", "rchar: " + rchar + "\nwchar: " + wchar + "\nsyscr: 1\nsyscw: 1\nread_bytes: " + readBytes
                + "\nwrite_bytes: " + writeBytes + "\ncancelled_write_bytes: 0\n");
    }
}
