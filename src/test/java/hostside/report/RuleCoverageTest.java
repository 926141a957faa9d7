package hostside.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Source;
import hostside.testing.RuleTally;

/**
 * Every rule of the rulebook has a test that makes it fire and a test that sees it quiet, judged on
 * what the whole suite's tests made (RuleTally watches every finding a rule makes).
 * It runs after every other test class; on a run of some classes only it says so and judges nothing.
 * What it saw of each rule is written to target/rule-coverage.tsv.
 */
@Order(Integer.MAX_VALUE)
class RuleCoverageTest {
    /** The suite's test classes are named *Test (Surefire plans those and Test*, which here are helpers with no test). */
    private static final Pattern TEST_CLASS = Pattern.compile("[^/$]*Test\\.class");

    /** Bad and warn: what a rule that gives them says when its condition holds. */
    private static final Set<Severity> PROBLEMS = EnumSet.of(Severity.BAD, Severity.WARN);

    /**
     * Fired: a finding of a problem (bad, warn) where the rule gives one; else, for a rule that only
     * informs, an info finding (unknown for a rule that gives nothing else).
     */
    static boolean fired(Rule r, Set<Severity> seen) {
        Set<Severity> speaks = EnumSet.copyOf(r.severities());
        if (speaks.stream().anyMatch(PROBLEMS::contains)) speaks.retainAll(PROBLEMS);
        else {
            speaks.remove(Severity.OK);
            if (speaks.size() > 1) speaks.remove(Severity.UNKNOWN);
        }
        return seen.stream().anyMatch(speaks::contains);
    }

    /**
     * Quiet: an ok finding, a test's {@link RuleTally#quiet} (none but ok findings of it), or, for a
     * rule that gives problems, an info finding: its word where its condition does not hold.
     */
    static boolean quiet(Rule r, Set<Severity> seen) {
        boolean problems = r.severities().stream().anyMatch(PROBLEMS::contains);
        return seen.contains(Severity.OK) || problems && seen.contains(Severity.INFO) || RuleTally.assertedQuiet(r.id());
    }

    @Test
    void everyRuleFiresInATestAndIsSeenQuietInAnother() throws IOException {
        // -Dhostside.rules.only=M1-,M4-60S- judges those rules' coverage on a run of some test classes (their package's, say)
        String only = System.getProperty("hostside.rules.only", "");
        List<String> prefixes = only.isBlank() ? List.of() : List.of(only.split(","));
        if (prefixes.isEmpty()) {
            Set<String> all = suite(Path.of("target/test-classes"));
            Set<String> planned = new TreeSet<>(RuleTally.plannedClasses());
            Set<String> notRun = new TreeSet<>(all);
            notRun.removeAll(planned);
            Assumptions.assumeTrue(notRun.isEmpty(), () -> "not judged: this run planned " + planned.size() + " of the suite's " + all.size()
                    + " test classes; the rulebook's coverage is judged on a run of them all (./run-tests), or of some rules with -Dhostside.rules.only=M1-");
        }

        List<String> rows = new ArrayList<>(List.of("id\tseverities seen\tfired\tquiet"));
        List<String> missing = new ArrayList<>();
        for (Rule r : Rulebook.all()) {
            if (!prefixes.isEmpty() && prefixes.stream().noneMatch(p -> r.id().startsWith(p.trim()))) continue;
            Set<Severity> seen = RuleTally.seen(r.id());
            boolean fired = fired(r, seen), quiet = quiet(r, seen);
            rows.add(r.id() + "\t" + seen + "\t" + fired + "\t" + quiet);
            if (!fired) missing.add(r.id() + ": no test makes it fire (seen " + seen + ")");
            if (!quiet) missing.add(r.id() + ": no test sees it quiet (an ok finding, or RuleTally.quiet)");
        }
        Files.write(Path.of("target/rule-coverage.tsv"), rows);
        assertThat(missing).as("rules without a test that makes them fire or one that sees them quiet (target/rule-coverage.tsv)").isEmpty();
    }

    @Test
    void firedIsAProblemWhereTheRuleGivesOneAndQuietItsOtherWord() {
        Rule warns = Rule.of("M6-TEST-X", "x", EnumSet.of(Severity.WARN, Severity.UNKNOWN, Severity.INFO), "m", "f", Source.reasoned("r"));
        assertThat(fired(warns, EnumSet.of(Severity.INFO, Severity.UNKNOWN))).isFalse();
        assertThat(fired(warns, EnumSet.of(Severity.WARN))).isTrue();
        assertThat(quiet(warns, EnumSet.of(Severity.INFO))).isTrue();
        assertThat(quiet(warns, EnumSet.of(Severity.UNKNOWN, Severity.WARN))).isFalse();
        Rule informs = Rule.of("M6-TEST-Y", "y", EnumSet.of(Severity.UNKNOWN, Severity.INFO), "m", "", Source.reasoned("r"));
        assertThat(fired(informs, EnumSet.of(Severity.INFO))).isTrue();
        assertThat(fired(informs, EnumSet.of(Severity.UNKNOWN))).isFalse();
        assertThat(quiet(informs, EnumSet.of(Severity.INFO))).as("an informing rule's info is its firing, not its quiet").isFalse();
        Rule unknownOnly = Rule.of("M6-TEST-Z", "z", EnumSet.of(Severity.UNKNOWN), "m", "", Source.reasoned("r"));
        assertThat(fired(unknownOnly, EnumSet.of(Severity.UNKNOWN))).isTrue();
    }

    /** The top-level test classes under {@code classes}, by name. */
    static Set<String> suite(Path classes) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> s = Files.walk(classes)) {
            s.filter(p -> TEST_CLASS.matcher(p.getFileName().toString()).matches()).forEach(p -> {
                String rel = classes.relativize(p).toString();
                names.add(rel.substring(0, rel.length() - ".class".length()).replace('/', '.'));
            });
        }
        return names;
    }
}
