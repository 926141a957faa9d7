package hostside.libc;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Memory placement on NUMA nodes: mbind(2) to put a region's pages on one node before they are
 * first touched, and move_pages(2) with no target to ask where pages really are. glibc does not
 * wrap these (libnuma does, and is not everywhere): they go through syscall(2), whose numbers differ
 * between x86-64 and the generic table of aarch64. Neither needs a privilege for this process's own
 * pages; a node outside the process's cpuset is refused with EINVAL.
 */
public final class Numa {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final boolean ARM = "aarch64".equals(System.getProperty("os.arch"));
    static final long SYS_MBIND = ARM ? 235 : 237, SYS_MOVE_PAGES = ARM ? 239 : 279;
    /** mbind's policy: allocate only from the nodes in the mask. */
    public static final int MPOL_BIND = 2;
    /** mbind's flag: fail if a page already in the range is not on the nodes (it is placed once, before touch). */
    static final int MPOL_MF_STRICT = 1;
    /** Room for 1024 nodes in a mask, the kernel's usual MAX_NUMNODES. */
    static final int MASK_WORDS = 16;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    /** syscall(SYS_mbind, addr, len, mode, nodemask, maxnode, flags). */
    private static final MethodHandle MBIND = LINKER.downcallHandle(symbol(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT),
            Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(1));
    /** syscall(SYS_move_pages, pid, count, pages, nodes, status, flags). */
    private static final MethodHandle MOVE_PAGES = LINKER.downcallHandle(symbol(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, JAVA_INT),
            Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(1));

    private Numa() {}

    private static MemorySegment symbol() {
        return LINKER.defaultLookup().find("syscall").orElseThrow(() -> new LibcException("syscall: not in this libc"));
    }

    /**
     * Binds {@code region}'s pages to {@code node}: pages not yet touched will be allocated there
     * and nowhere else (MPOL_BIND). Call it before the first touch; pages already present stay
     * where they are.
     */
    public static void bind(MemorySegment region, int node) {
        if (node < 0 || node >= MASK_WORDS * 64) throw new IllegalArgumentException("node " + node);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mask = a.allocate(JAVA_LONG, MASK_WORDS);
            mask.setAtIndex(JAVA_LONG, node / 64, 1L << (node % 64));
            MemorySegment state = a.allocate(CALL_STATE);
            // maxnode is one more than the bits the kernel reads (it decrements it first), as libnuma passes it
            long r = (long) MBIND.invokeExact(state, SYS_MBIND, region.address(), region.byteSize(), MPOL_BIND, mask,
                    (long) MASK_WORDS * 64 + 1, 0);
            if (r != 0) {
                int errno = (int) ERRNO.get(state, 0L);
                throw new LibcException("mbind to node " + node + ": " + Errno.describe(errno), errno);
            }
        } catch (LibcException | IllegalArgumentException e) {
            throw e;
        } catch (Throwable t) {
            throw new LibcException("mbind: " + t);
        }
    }

    /**
     * The node of each of {@code count} pages spread evenly over {@code region}, as move_pages(2)
     * reports them when asked to move nothing: a node id, or a negative errno for a page that is
     * not there (-ENOENT: never touched; -EFAULT: not mapped).
     */
    public static int[] nodesOf(MemorySegment region, long pageSize, int count) {
        long pages = Math.max(1, region.byteSize() / pageSize);
        int n = (int) Math.min(count, pages);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment addresses = a.allocate(JAVA_LONG, n), status = a.allocate(JAVA_INT, n), state = a.allocate(CALL_STATE);
            for (int i = 0; i < n; i++) {
                long page = pages * i / n;
                addresses.setAtIndex(JAVA_LONG, i, region.address() + page * pageSize);
            }
            long r = (long) MOVE_PAGES.invokeExact(state, SYS_MOVE_PAGES, 0L, (long) n, addresses.address(), MemorySegment.NULL, status, 0);
            if (r < 0) {
                int errno = (int) ERRNO.get(state, 0L);
                throw new LibcException("move_pages: " + Errno.describe(errno), errno);
            }
            return status.toArray(JAVA_INT);
        } catch (LibcException e) {
            throw e;
        } catch (Throwable t) {
            throw new LibcException("move_pages: " + t);
        }
    }
}
