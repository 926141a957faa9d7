package hostside.cpu.dataloader;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import hostside.cpu.dataloader.ProcMemory.Look;
import hostside.cpu.dataloader.ProcMemory.Sample;

/**
 * One process watched over a run: its samples in time order, and the looks that found nothing
 * (it had exited: expected; or its file could not be read: kept with the reason).
 */
public final class Series {
    private final long pid;
    private final String role;
    private final List<Sample> samples = new ArrayList<>();
    private int vanished;
    private int unreadable;
    private String problem = "";

    public Series(long pid, String role) {
        this.pid = pid;
        this.role = role;
    }

    /** Records one look; returns the sample when there was one. */
    public Optional<Sample> add(Look look) {
        switch (look) {
            case Look.Seen s -> {
                samples.add(s.sample());
                return Optional.of(s.sample());
            }
            case Look.Vanished v -> vanished++;
            case Look.Unreadable u -> {
                unreadable++;
                problem = u.why();
            }
        }
        return Optional.empty();
    }

    public long pid() {
        return pid;
    }

    public String role() {
        return role;
    }

    public List<Sample> samples() {
        return List.copyOf(samples);
    }

    public Optional<Sample> first() {
        return samples.isEmpty() ? Optional.empty() : Optional.of(samples.getFirst());
    }

    public Optional<Sample> last() {
        return samples.isEmpty() ? Optional.empty() : Optional.of(samples.getLast());
    }

    /** Looks that found the process gone. */
    public int vanishedLooks() {
        return vanished;
    }

    /** Looks that found it there but unreadable, and the last reason. */
    public int unreadableLooks() {
        return unreadable;
    }

    public String problem() {
        return problem;
    }
}
