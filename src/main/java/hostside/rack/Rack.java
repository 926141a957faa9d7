package hostside.rack;

import java.util.List;

import hostside.gpu.bench.Copies;
import hostside.gpu.bench.SmAccess;
import hostside.gpu.bench.Target;
import hostside.harness.TestCase;

/**
 * Module 5, first part: each GPU's coherence class, and copy engines against SMs reading and
 * writing host memory. {@link RackDocument} says what it shows.
 */
public final class Rack {
    private Rack() {}

    /** The copy engine and SM copies both ways: the pairs whose ratio the module is about. */
    public static List<TestCase<Target>> tests() {
        return List.of(new Copies.CePinned(true), new Copies.CePinned(false), new SmAccess.SmCopy(true), new SmAccess.SmCopy(false));
    }
}
