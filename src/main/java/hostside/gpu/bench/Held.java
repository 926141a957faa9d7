package hostside.gpu.bench;

import java.util.ArrayDeque;

/**
 * Resources made one by one across several GPUs (buffers on each, in each one's context), closed
 * newest first, each close tried even when an earlier one failed: a test case that allocates in a
 * loop cannot nest try-with-resources.
 */
public final class Held implements AutoCloseable {
    private final ArrayDeque<AutoCloseable> held = new ArrayDeque<>();

    public <T extends AutoCloseable> T keep(T resource) {
        held.push(resource);
        return resource;
    }

    @Override
    public void close() {
        RuntimeException first = null;
        while (!held.isEmpty()) {
            try {
                held.pop().close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
            } catch (Exception e) {
                if (first == null) first = new IllegalStateException(e);
            }
        }
        if (first != null) throw first;
    }
}
