package hostside.health;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Finding;
import hostside.core.Rule;

/**
 * What the checks concluded, as they go: a finding where a rule fired, a passed check where it
 * looked and found nothing. A check that could not read its facts adds neither (it says so with
 * {@link HealthRules#NOT_JUDGED}): "ok" is only ever said of what was read.
 */
final class Judged {
    final List<Finding> findings = new ArrayList<>();
    final List<HealthRun.Passed> passed = new ArrayList<>();

    void add(Finding f) {
        findings.add(f);
    }

    void pass(Rule rule, String subject) {
        passed.add(new HealthRun.Passed(rule.id(), subject));
    }
}
