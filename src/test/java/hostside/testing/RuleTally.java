package hostside.testing;

import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the suite saw of each rule: the severities of every finding a rule made while the tests ran
 * (through {@link Rule#witness}), and the rules a test asserted quiet. A rule is covered when a test
 * made it fire and a test saw it quiet: an ok finding of it, or {@link #quiet} on findings that hold
 * none of it. Registered with the JUnit launcher (META-INF/services), so it watches every test of a
 * run; {@code RuleCoverageTest}, run last, reads it.
 */
public final class RuleTally implements LauncherSessionListener, TestExecutionListener {
    private static final Map<String, Set<Severity>> SEEN = new ConcurrentHashMap<>();
    private static final Set<String> ASSERTED_QUIET = ConcurrentHashMap.newKeySet();
    private static final Set<String> PLANNED_CLASSES = ConcurrentHashMap.newKeySet();

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        Rule.witness(RuleTally::saw);
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        Rule.witness(null);
    }

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        for (var root : plan.getRoots()) {
            for (var t : plan.getDescendants(root)) {
                t.getSource().filter(ClassSource.class::isInstance).map(s -> ((ClassSource) s).getClassName()).ifPresent(PLANNED_CLASSES::add);
            }
        }
    }

    private static void saw(Finding f) {
        SEEN.computeIfAbsent(f.id(), k -> ConcurrentHashMap.newKeySet()).add(f.severity());
    }

    /**
     * Asserts that {@code rule} stayed quiet among {@code findings} (none of its findings, or only ok
     * ones) and counts it seen quiet. Returns the findings, to assert more of them.
     */
    public static <T extends Collection<Finding>> T quiet(T findings, Rule rule) {
        assertThat(findings).as(rule.id() + " quiet").noneMatch(f -> f.id().equals(rule.id()) && f.severity() != Severity.OK);
        ASSERTED_QUIET.add(rule.id());
        return findings;
    }

    /** The severities of the findings {@code id} made in this run so far. */
    public static Set<Severity> seen(String id) {
        Set<Severity> s = SEEN.get(id);
        return s == null || s.isEmpty() ? EnumSet.noneOf(Severity.class) : EnumSet.copyOf(s);
    }

    /** Whether a test asserted {@code id} quiet. */
    public static boolean assertedQuiet(String id) {
        return ASSERTED_QUIET.contains(id);
    }

    /** The names of the test classes this run planned (the whole suite, or those a filter chose). */
    public static List<String> plannedClasses() {
        return List.copyOf(PLANNED_CLASSES);
    }
}
