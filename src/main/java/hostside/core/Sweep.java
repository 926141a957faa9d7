package hostside.core;

import java.util.List;

/**
 * One figure measured at several sizes: copy bandwidth against buffer size, load latency
 * against working set. The points are in increasing size.
 *
 * @param unit   the unit of every point's figure
 * @param points size in bytes, and the figure there
 */
public record Sweep(Unit unit, List<Point> points) {
    public Sweep {
        points = List.copyOf(points);
        for (int i = 1; i < points.size(); i++) {
            if (points.get(i).bytes() <= points.get(i - 1).bytes()) throw new IllegalArgumentException("sweep sizes not increasing at " + points.get(i).bytes());
        }
    }

    public record Point(long bytes, Stats value) {}
}
