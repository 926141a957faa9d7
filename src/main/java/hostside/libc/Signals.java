package hostside.libc;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * kill(2) with a negative pid: a signal to a whole process group, which
 * {@link ProcessHandle#destroy()} cannot send (it signals one pid). Used to end a helper process
 * and everything it started, orphans included, in one call.
 */
public final class Signals {
    public static final int SIGKILL = 9, SIGTERM = 15;
    static final int EPERM = 1, ESRCH = 3;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static volatile MethodHandle kill;

    private Signals() {}

    private static MethodHandle handle() {
        MethodHandle h = kill;
        if (h == null) {
            MemorySegment symbol = LINKER.defaultLookup().find("kill").orElseThrow(() -> new LibcException("kill: not in this libc"));
            h = LINKER.downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), Linker.Option.captureCallState("errno"));
            kill = h;
        }
        return h;
    }

    /**
     * Sends {@code signal} to every process in group {@code pgid}. False when the group no
     * longer exists (ESRCH); other errors (EPERM) throw.
     */
    public static boolean toGroup(long pgid, int signal) {
        return send(-pgid, signal, pgid);
    }

    /** Whether process group {@code pgid} has a process in it (zombies included): kill with signal 0. */
    public static boolean groupExists(long pgid) {
        try {
            return toGroup(pgid, 0);
        } catch (LibcException e) {
            return e.errno() == EPERM; // someone else's: it exists
        }
    }

    private static boolean send(long target, int signal, long pgid) {
        if (pgid <= 1) throw new IllegalArgumentException("process group " + pgid + ": not a group of ours");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int r = (int) handle().invokeExact(state, (int) target, signal);
            if (r == 0) return true;
            int errno = (int) ERRNO.get(state, 0L);
            if (errno == ESRCH) return false;
            throw new LibcException("kill(-" + pgid + ", " + signal + "): " + Errno.describe(errno), errno);
        } catch (LibcException | IllegalArgumentException e) {
            throw e;
        } catch (Throwable t) {
            throw new LibcException("kill: " + t);
        }
    }
}
