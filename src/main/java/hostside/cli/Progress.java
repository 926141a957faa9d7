package hostside.cli;

import java.util.function.Supplier;

/**
 * A line on stderr for work that may take more than a moment (unpacking a large recording),
 * shown only on a terminal and only once the work has lasted a second, so that quick runs and
 * pipes stay silent and stdout (JSON) is never touched.
 */
public final class Progress {
    private static final long SHOW_AFTER_MS = 1000;

    private Progress() {}

    public static <T> T during(String what, Supplier<T> work) {
        if (System.console() == null) return work.get();
        long start = System.nanoTime();
        Object lock = new Object();
        boolean[] shown = {false, false}; // {line printed, work done}
        Thread note = Thread.ofVirtual().unstarted(() -> {
            try {
                Thread.sleep(SHOW_AFTER_MS);
            } catch (InterruptedException e) {
                return; // finished before the line was due
            }
            synchronized (lock) {
                if (shown[1]) return;
                System.err.print("hostside: " + what + "...");
                System.err.flush();
                shown[0] = true;
            }
        });
        note.start();
        try {
            return work.get();
        } finally {
            note.interrupt();
            synchronized (lock) {
                shown[1] = true;
                if (shown[0]) System.err.printf(java.util.Locale.ROOT, " %.1f s%n", (System.nanoTime() - start) / 1e9);
            }
        }
    }
}
