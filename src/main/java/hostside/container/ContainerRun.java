package hostside.container;

import java.util.List;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.core.Json;
import hostside.doc.Document;
import hostside.fs.FsRoot;
import hostside.harness.DrillRun;

/**
 * One run of {@code hostside container}: what the report embeds.
 *
 * @param verdict  the one line at the top: where this runs and which limits break training
 * @param facts    the limits as read
 * @param plan     the DataLoader they were weighed against
 * @param findings what they mean, with symptom and fix
 */
@com.fasterxml.jackson.annotation.JsonIgnoreProperties({"schema", "kind", "figures"}) // derived: its JSON reads back into an equal run
public record ContainerRun(String verdict, ContainerFacts facts, DataLoaderPlan plan, List<Finding> findings) implements DrillRun {
    public static ContainerRun of(ContainerFacts facts, DataLoaderPlan plan) {
        List<Finding> findings = ContainerVerdicts.of(facts, plan);
        return new ContainerRun(ContainerVerdicts.headline(facts, findings), facts, plan, findings);
    }

    /** The facts, the plan and the findings; what the report calls. Null options take the defaults. */
    public static ContainerRun read(FsRoot fs, LiveProcess live, Integer workers, Integer threads, Long batchBytes) {
        ContainerFacts facts = ContainerReader.read(fs, live);
        return of(facts, DataLoaderPlan.of(facts, live, workers, threads, batchBytes));
    }

    @Override
    public List<Finding> conclusions() {
        return findings;
    }

    @Override
    public Document document() {
        return ContainerDocument.of(this);
    }

    /** None: the container's limits are facts, read, not measured; the list is there as every drill's is (docs/contract.md, Typed figures). */
    @Override
    public List<Figure> figures() {
        return List.of();
    }

    /** The JSON of this run, under the schema name hostside/2 (docs/schema): what {@code hostside container --json} prints and the report embeds. */
    @Override
    public com.fasterxml.jackson.databind.node.ObjectNode json() {
        return Json.document("container", this, figures());
    }
}
