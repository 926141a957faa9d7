package hostside.core;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * What a finding read to conclude what it did: a typed figure by its test case's key, or a fact by
 * where it was read. A program that reads a report's findings checks these, never the text.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
@JsonSubTypes({@JsonSubTypes.Type(Evidence.Measured.class), @JsonSubTypes.Type(Evidence.Fact.class)})
public sealed interface Evidence {
    /**
     * A figure: the median of a test case's samples, in its unit.
     *
     * @param key   the test case's key ("syscall_getppid")
     * @param value the median
     * @param unit  its unit
     */
    record Measured(String key, double value, Unit unit) implements Evidence {}

    /**
     * A fact read from the machine.
     *
     * @param fact  where it was read: a file under /sys or /proc, or a name hostside gives a fact ("host.virtualized")
     * @param value what it held, as read
     */
    record Fact(String fact, String value) implements Evidence {}

    static Evidence of(String key, double value, Unit unit) {
        return new Measured(key, value, unit);
    }

    static Evidence fact(String fact, String value) {
        return new Fact(fact, value);
    }

    /**
     * The figures and facts as one line, for a finding that states them without judging them (a
     * figure measured busy): "syscall_getppid 97.65 ns, /proc/sys/vm/overcommit_memory 0".
     */
    static String said(java.util.List<Evidence> evidence) {
        return evidence.stream().map(e -> switch (e) {
            case Measured m -> m.key() + " " + Units.figure(m.value()) + " " + m.unit().symbol();
            case Fact f -> f.fact() + " " + f.value();
        }).collect(java.util.stream.Collectors.joining(", "));
    }
}
