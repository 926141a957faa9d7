package hostside.learn;

import java.util.List;
import java.util.Optional;

import hostside.learn.m1.H2dCopy;
import hostside.learn.m2.CowStepper;
import hostside.learn.m2.PageWalkStepper;
import hostside.learn.m2.TlbReachStepper;
import hostside.learn.m3.FeederStep;
import hostside.learn.m4.ContainerLimits;
import hostside.learn.m4.ReadPaths;
import hostside.learn.m5.CoherentAccessStepper;
import hostside.learn.m5.ImexHandleStepper;
import hostside.learn.m6.PlatformPlacement;

/** Every stepper of the learning mode, in the course's order. */
public final class Steppers {
    private Steppers() {}

    private static final List<Stepper> ALL = List.of(
            new H2dCopy(),
            new PageWalkStepper(), new CowStepper(), new TlbReachStepper(),
            new FeederStep(),
            new ReadPaths(), new ContainerLimits(),
            new CoherentAccessStepper(), new ImexHandleStepper(),
            new PlatformPlacement());

    public static List<Stepper> all() {
        return ALL;
    }

    public static List<Stepper> of(int module) {
        return ALL.stream().filter(s -> s.module() == module).toList();
    }

    public static Optional<Stepper> get(String key) {
        return ALL.stream().filter(s -> s.key().equals(key)).findFirst();
    }
}
