package hostside.learn;

import java.util.List;
import java.util.Optional;

/** Every stepper of the learning mode, in the course's order. */
public final class Steppers {
    private Steppers() {}

    private static final List<Stepper> ALL = List.of(
            new hostside.learn.m1.H2dCopy(),
            new hostside.learn.m2.PageWalkStepper(), new hostside.learn.m2.CowStepper(), new hostside.learn.m2.TlbReachStepper(),
            new hostside.learn.m3.FeederStep(),
            new hostside.learn.m4.ReadPaths(), new hostside.learn.m4.ContainerLimits(),
            new hostside.learn.m5.CoherentAccessStepper(), new hostside.learn.m5.ImexHandleStepper(),
            new hostside.learn.m6.PlatformPlacement());

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
