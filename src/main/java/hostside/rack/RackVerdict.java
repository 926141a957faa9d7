package hostside.rack;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import hostside.core.Severity;

/**
 * A checklist item's verdict. Only {@link #BAD} says the machine is broken for the work the item is
 * about; {@link #NA} says the item does not apply to this platform (IMEX on a single box), which is
 * not a failure; {@link #NOT_RUN} says it applies but was not looked at (a recorded machine, no driver).
 */
public enum RackVerdict {
    OK("ok"), INFO("info"), WARN("warn"), BAD("bad"), UNKNOWN("unknown"), NA("n/a"), NOT_RUN("not run");

    private final String label;

    RackVerdict(String label) {
        this.label = label;
    }

    @JsonValue
    @Override
    public String toString() {
        return label;
    }

    /** The severity a finding of this verdict has; null for n/a and not run, which conclude nothing about the machine. */
    public Severity severity() {
        return switch (this) {
            case OK -> Severity.OK;
            case INFO -> Severity.INFO;
            case WARN -> Severity.WARN;
            case BAD -> Severity.BAD;
            case UNKNOWN -> Severity.UNKNOWN;
            case NA, NOT_RUN -> null;
        };
    }

    /** The verdict a finding of this severity reads as on a checklist's line: {@link #severity()} the other way. */
    public static RackVerdict of(Severity s) {
        return switch (s) {
            case OK -> OK;
            case INFO -> INFO;
            case WARN -> WARN;
            case BAD -> BAD;
            case UNKNOWN -> UNKNOWN;
        };
    }

    @JsonCreator
    public static RackVerdict parse(String s) {
        for (RackVerdict v : values()) if (v.label.equals(s)) return v;
        throw new IllegalArgumentException("\"" + s + "\" is not ok, info, warn, bad, unknown, n/a or not run");
    }
}
