package hostside.memory;

import java.lang.foreign.MemorySegment;

import hostside.libc.Libc;
import hostside.libc.LibcException;
import hostside.libc.Numa;

/**
 * An anonymous mapping that the memory measurements own: placed on a NUMA node (mbind) or left to
 * first touch, asked for transparent huge pages or not, and unmapped on close, so that nothing it
 * held stays charged to the process after the case. Not touched here: the measurement's threads
 * touch it first, so that first touch places each part where STREAM's would be.
 */
final class Region implements AutoCloseable {
    final MemorySegment segment;
    private boolean closed;

    private Region(MemorySegment segment) {
        this.segment = segment;
    }

    /**
     * @param node     the NUMA node every page must come from; null leaves placement to first touch
     * @param huge     ask for transparent huge pages (madvise): a pointer chase over a working set far
     *                 beyond the TLB's reach would otherwise time page walks, not memory
     */
    static Region map(long bytes, Integer node, boolean huge) {
        MemorySegment s = Libc.mmap(bytes, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS, -1, 0);
        Region r = new Region(s);
        try {
            if (huge) {
                try {
                    Libc.madvise(s, Libc.MADV_HUGEPAGE);
                } catch (LibcException e) {
                    // THP off or not built in: base pages, which the figure's detail says
                }
            }
            if (node != null) Numa.bind(s, node);
            return r;
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        Libc.munmap(segment);
    }
}
