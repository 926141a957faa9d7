package hostside.container;

import java.util.List;

import hostside.core.Finding;

/**
 * One run of {@code hostside container}: what the report embeds.
 *
 * @param verdict  the one line at the top: where this runs and which limits break training
 * @param facts    the limits as read
 * @param plan     the DataLoader they were weighed against
 * @param findings what they mean, with symptom and fix
 */
public record ContainerRun(String verdict, ContainerFacts facts, DataLoaderPlan plan, List<Finding> findings) {
    public static ContainerRun of(ContainerFacts facts, DataLoaderPlan plan) {
        List<Finding> findings = ContainerVerdicts.of(facts, plan);
        return new ContainerRun(ContainerVerdicts.headline(facts, findings), facts, plan, findings);
    }
}
