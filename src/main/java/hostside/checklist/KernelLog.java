package hostside.checklist;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import hostside.fs.FsRoot;
import hostside.core.GarbageException;
import hostside.libc.Errno;
import hostside.libc.Libc;
import hostside.libc.LibcException;

/**
 * The kernel log as /dev/kmsg gives it, from the oldest record the ring buffer still holds, with
 * the moment it was read (seconds since boot, from /proc/uptime) to age the records by.
 *
 * <p>/dev/kmsg is read, not dmesg run: each read(2) returns exactly one record with its
 * sequence number and timestamp, and opened non-blocking it says EAGAIN at the end of the buffer
 * instead of waiting for the next message. It is a device, not a file under /proc: a recorded
 * machine has none.
 *
 * @param notRead   null when read; else why not, in one line
 * @param nowSeconds seconds since boot when read, null when /proc/uptime could not say
 * @param garbled   records that did not parse (counted, not kept)
 */
public record KernelLog(List<KmsgRecord> records, Double nowSeconds, String notRead, int garbled) {
    static final String DEVICE = "/dev/kmsg";
    static final int EAGAIN = 11, EPIPE = 32;
    /** More than the kernel's largest record (CONSOLE_EXT_LOG_MAX, 8 KiB): a smaller buffer gets EINVAL. */
    static final int RECORD_BUFFER = 16 * 1024;
    /** A bound for a log that grows as fast as it is read (a flood of messages). */
    static final int MAX_RECORDS = 500_000;

    public KernelLog {
        records = List.copyOf(records);
    }

    public boolean read() {
        return notRead == null;
    }

    static KernelLog notRead(String why) {
        return new KernelLog(List.of(), null, why, 0);
    }

    /** This machine's log; on a recording, "not read" and why. */
    public static KernelLog read(FsRoot fs) {
        if (!fs.isLive()) return notRead("a recorded machine has no kernel log (/dev/kmsg is a device, not a file under /proc)");
        List<String> raw = new ArrayList<>();
        String problem = readDevice(raw);
        if (problem != null && raw.isEmpty()) return notRead(problem + restrictHint(fs));
        return parse(raw, uptime(fs));
    }

    /** Records as read(2) gave them, and the seconds since boot to age them by. */
    static KernelLog parse(List<String> raw, Double nowSeconds) {
        List<KmsgRecord> records = new ArrayList<>();
        int garbled = 0;
        for (String r : raw) {
            try {
                records.add(KmsgRecord.parse(r));
            } catch (GarbageException e) {
                garbled++;
            }
        }
        return new KernelLog(records, nowSeconds, null, garbled);
    }

    /** Fills {@code out} with every record; returns why it could not start or had to stop, or null. */
    static String readDevice(List<String> out) {
        int fd;
        try {
            fd = Libc.open(DEVICE, Libc.O_RDONLY | Libc.O_NONBLOCK);
        } catch (LibcException e) {
            return DEVICE + ": " + (e.errno() == 0 ? e.getMessage() : Errno.describe(e.errno()));
        } catch (RuntimeException | LinkageError e) {
            return DEVICE + ": cannot be opened here (" + e.getMessage() + ")";
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(RECORD_BUFFER);
            while (out.size() < MAX_RECORDS) {
                long n;
                try {
                    n = Libc.read(fd, buf, RECORD_BUFFER);
                } catch (LibcException e) {
                    if (e.errno() == EAGAIN) return null;
                    // the ring buffer overwrote the next record while we read: the read after goes on
                    if (e.errno() == EPIPE) continue;
                    return DEVICE + ": " + Errno.describe(e.errno());
                }
                if (n <= 0) return null;
                out.add(new String(buf.asSlice(0, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
            }
            return DEVICE + ": stopped after " + MAX_RECORDS + " records";
        } finally {
            try {
                Libc.close(fd);
            } catch (LibcException e) {
                // the records are read; a failed close of a read-only descriptor loses nothing
            }
        }
    }

    /** Why a permission failure happens, where the machine says: dmesg_restrict. */
    private static String restrictHint(FsRoot fs) {
        return fs.text("/proc/sys/kernel/dmesg_restrict").filter("1"::equals)
                .map(x -> " (kernel.dmesg_restrict=1: reading it needs CAP_SYSLOG)").orElse("");
    }

    static Double uptime(FsRoot fs) {
        return fs.text("/proc/uptime").map(t -> t.split("\\s+")[0]).map(s -> {
            try {
                double d = Double.parseDouble(s);
                return d >= 0 && Double.isFinite(d) ? d : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }).orElse(null);
    }
}
