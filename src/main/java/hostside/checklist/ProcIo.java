package hostside.checklist;

import java.util.HashMap;
import java.util.Map;

import hostside.fs.FactReads;
import hostside.core.GarbageException;

/**
 * /proc/PID/io. {@code readBytes}/{@code writeBytes} are what the process made the block layer
 * fetch or will make it write (page cache hits and dirty pages rewritten in memory do not count);
 * {@code rchar}/{@code wchar} are every byte through read/write-like calls, sockets and pipes
 * included. Readable only by the owner or with CAP_SYS_PTRACE.
 */
public record ProcIo(long rchar, long wchar, long syscr, long syscw, long readBytes, long writeBytes, long cancelledWriteBytes) {

    public static ProcIo parse(String text) {
        Map<String, Long> v = new HashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) continue;
            Long n = FactReads.parseNumber(line.substring(colon + 1));
            if (n != null) v.put(line.substring(0, colon).strip(), n);
        }
        String[] keys = {"rchar", "wchar", "syscr", "syscw", "read_bytes", "write_bytes", "cancelled_write_bytes"};
        for (String k : keys) {
            if (!v.containsKey(k)) throw new GarbageException("not /proc/PID/io (no " + k + "): \"" + FactReads.shown(text) + "\"");
        }
        return new ProcIo(v.get("rchar"), v.get("wchar"), v.get("syscr"), v.get("syscw"), v.get("read_bytes"), v.get("write_bytes"),
                v.get("cancelled_write_bytes"));
    }
}
