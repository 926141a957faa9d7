package hostside.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.exc.IgnoredPropertyException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.dataformat.yaml.YAMLMapper;

import hostside.Fixtures;
import hostside.core.Json;
import hostside.io.IoDrill;

/**
 * deploy/k8s, checked with no cluster (CI has none): every YAML document read into Kubernetes' own
 * typed model (fabric8's, generated from the API's OpenAPI schema), refusing what the API server's
 * strict field validation refuses (unknown fields, wrong types, duplicate keys); then the
 * properties the recipe promises; then its command, run for real with a stand-in for hostside.
 * Broken copies of the real manifest prove that the reading refuses them, naming the field. What
 * the schema cannot say (required fields, the values an enum allows) is not checked here beyond
 * the values the recipe promises.
 */
class KubernetesManifestsTest {

    /** Where the manifests are: beside testdata/ in the repository. */
    static Path deploy() {
        return Fixtures.testdata().getParent().resolve("deploy/k8s");
    }

    static Path jobFile() {
        return deploy().resolve("hostside-job.yaml");
    }

    // ---------------------------------------------------------------------------------------------
    // The strict reading

    /** A document of a manifest, refused: where and why, with the field's path as kubectl prints it. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The kinds deploy/k8s may hold, each with its typed model; anything else is refused, not skipped. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of("batch/v1 Job", Job.class);

    /**
     * fabric8's models keep any field they do not know in {@code additionalProperties} through a
     * {@code @JsonAnySetter}, which is how a client tolerates newer servers, and which would accept
     * {@code matchLabelz} in silence: FAIL_ON_UNKNOWN_PROPERTIES never fires while an any-setter
     * exists. Without the any-setter an unknown field fails, named. A field the model marks
     * ignored fails too (FAIL_ON_IGNORED_PROPERTIES), else {@code additionalProperties:} written as
     * a key would pass. Scalars are not coerced across types, as Go's JSON decoding in the API
     * server does not: {@code mountPath: 7} and {@code completions: "4"} are refused. Quantity and
     * IntOrString have deserialisers of their own, which take both numbers and strings, as the API
     * does. Duplicate keys are refused, as kubectl's strict decoding refuses them.
     */
    static final YAMLMapper STRICT = YAMLMapper.builder()
            .annotationIntrospector(new JacksonAnnotationIntrospector() {
                private static final long serialVersionUID = 1L;

                @Override
                public Boolean hasAnySetter(MapperConfig<?> config, Annotated a) {
                    return Boolean.FALSE;
                }
            })
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES,
                    DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail).setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Integer, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail).setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Boolean, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail))
            .build();

    /** Every document of a YAML text, each read into the model of its kind; the first refusal throws. */
    static List<HasMetadata> read(String source, String yaml) throws Refused {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = STRICT.readerFor(JsonNode.class).readValues(yaml)) {
            while (it.hasNextValue()) {
                JsonNode d = it.nextValue();
                if (d != null && !d.isNull() && !d.isMissingNode()) docs.add(d); // "---" with nothing after it, as kubectl skips
            }
        } catch (JacksonException e) {
            throw new Refused(source + ": not YAML that Kubernetes reads: " + e.getOriginalMessage(), e);
        }
        List<HasMetadata> out = new ArrayList<>();
        for (int i = 0; i < docs.size(); i++) out.add(read(source + ", document " + (i + 1), docs.get(i)));
        return out;
    }

    static HasMetadata read(String where, JsonNode doc) throws Refused {
        if (!doc.isObject()) throw new Refused(where + ": not a mapping", null);
        String key = doc.path("apiVersion").asString("") + " " + doc.path("kind").asString("");
        Class<? extends HasMetadata> type = KINDS.get(key);
        if (type == null) throw new Refused(where + ": apiVersion and kind \"" + key + "\": not a kind this check knows " + KINDS.keySet(), null);
        try {
            return STRICT.treeToValue(doc, type);
        } catch (UnrecognizedPropertyException | IgnoredPropertyException e) {
            throw new Refused(where + " (" + key + "): " + path(e) + ": unknown field", e);
        } catch (JacksonException e) {
            throw new Refused(where + " (" + key + "): " + path(e) + ": " + e.getOriginalMessage().lines().findFirst().orElse(""), e);
        }
    }

    /** Jackson's reference chain as kubectl names a field: spec.template.spec.containers[0].name. */
    static String path(JacksonException e) {
        StringBuilder b = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getPropertyName() != null) b.append(b.isEmpty() ? "" : ".").append(r.getPropertyName());
            else if (r.getIndex() >= 0) b.append('[').append(r.getIndex()).append(']');
        }
        return b.isEmpty() ? "(the document)" : b.toString();
    }

    static String text(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    /** The shipped Job, read strictly; its refusal fails the test with the reason. */
    static Job job() throws Exception {
        List<HasMetadata> docs = read(jobFile().toString(), text(jobFile()));
        assertThat(docs).as("hostside-job.yaml holds one document").hasSize(1);
        return (Job) docs.getFirst();
    }

    static PodSpec pod(Job j) {
        return j.getSpec().getTemplate().getSpec();
    }

    static Container container(Job j) {
        assertThat(pod(j).getContainers()).as("one container").hasSize(1);
        assertThat(pod(j).getInitContainers()).as("no init containers").isNullOrEmpty();
        return pod(j).getContainers().getFirst();
    }

    // ---------------------------------------------------------------------------------------------
    // The manifests as shipped

    @Test
    void everyManifestInDeployK8sReadsStrictlyIntoItsKindsModel() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(deploy())) {
            files = s.filter(p -> p.getFileName().toString().matches(".*\\.ya?ml")).sorted().toList();
        }
        assertThat(files).as("manifests in " + deploy()).contains(jobFile());
        for (Path f : files) assertThat(read(f.toString(), text(f))).as(f.toString()).isNotEmpty();
    }

    @Test
    void theJobIsIndexedWithOnePodPerNodeRunningAtOnce() throws Exception {
        Job j = job();
        assertThat(j.getMetadata().getName()).isEqualTo("hostside");
        assertThat(j.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(j.getSpec().getCompletions()).as("completions: the node count").isPositive();
        assertThat(j.getSpec().getParallelism()).as("parallelism == completions: every node at once").isEqualTo(j.getSpec().getCompletions());
        // no retry, per node: one node's failure neither ends the others nor lands a second run anywhere
        assertThat(j.getSpec().getBackoffLimitPerIndex()).isZero();
        assertThat(j.getSpec().getBackoffLimit()).as("a global backoffLimit beside it would count across nodes again").isNull();
        assertThat(j.getSpec().getActiveDeadlineSeconds()).as("bounded, Pending time included").isPositive();
        assertThat(j.getSpec().getTtlSecondsAfterFinished()).as("finished pods go, after time to collect").isPositive();
        assertThat(pod(j).getRestartPolicy()).isEqualTo("Never");
    }

    @Test
    void placementKeepsASecondPodOffEveryNodeByRulesThatSelectTheJobsOwnPods() throws Exception {
        Job j = job();
        Map<String, String> own = j.getSpec().getTemplate().getMetadata().getLabels();
        assertThat(own).isNotEmpty();
        List<TopologySpreadConstraint> spread = pod(j).getTopologySpreadConstraints();
        assertThat(spread).as("a spread on the host name").anySatisfy(t -> {
            assertThat(t.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
            assertThat(t.getWhenUnsatisfiable()).isEqualTo("DoNotSchedule");
            assertThat(t.getMaxSkew()).isEqualTo(1);
            assertSelects(t.getLabelSelector(), own);
        });
        List<PodAffinityTerm> anti = pod(j).getAffinity().getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        assertThat(anti).as("required anti-affinity on the host name").anySatisfy(t -> {
            assertThat(t.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
            assertSelects(t.getLabelSelector(), own);
        });
    }

    /** A rule whose selector misses the pod's own labels places nothing: it must select them. */
    static void assertSelects(LabelSelector s, Map<String, String> labels) {
        assertThat(s).isNotNull();
        assertThat(s.getMatchExpressions()).isNullOrEmpty();
        assertThat(s.getMatchLabels()).isNotEmpty();
        assertThat(labels).containsAllEntriesOf(s.getMatchLabels());
    }

    @Test
    void thePodGetsEveryGpuOfItsNodeAndIsConfinedToOneProduct() throws Exception {
        Job j = job();
        Container c = container(j);
        Quantity gpus = c.getResources().getLimits().get("nvidia.com/gpu");
        assertThat(gpus).as("nvidia.com/gpu limit").isNotNull();
        assertThat(Quantity.getAmountInBytes(gpus).intValueExact()).isPositive();
        // an extended resource's request, where given, must equal its limit
        Map<String, Quantity> requests = c.getResources().getRequests();
        if (requests != null && requests.containsKey("nvidia.com/gpu")) assertThat(requests.get("nvidia.com/gpu")).isEqualTo(gpus);
        assertThat(c.getResources().getLimits()).as("no CPU quota or memory limit: the drills measure the node").containsOnlyKeys("nvidia.com/gpu");
        assertThat(pod(j).getNodeSelector()).as("one GPU product per Job").containsKey("nvidia.com/gpu.product");
    }

    @Test
    void thePodIsUnprivilegedAndWritesOnlyToItsVolumes() throws Exception {
        Job j = job();
        PodSpec p = pod(j);
        assertThat(p.getHostPID()).isNotEqualTo(Boolean.TRUE);
        assertThat(p.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
        assertThat(p.getHostIPC()).isNotEqualTo(Boolean.TRUE);
        assertThat(p.getVolumes()).as("no hostPath").allSatisfy(v -> assertThat(v.getHostPath()).isNull());
        var sc = container(j).getSecurityContext();
        assertThat(sc.getPrivileged()).isFalse();
        assertThat(sc.getAllowPrivilegeEscalation()).isFalse();
        assertThat(sc.getReadOnlyRootFilesystem()).isTrue();
        assertThat(sc.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(sc.getCapabilities().getAdd()).isNullOrEmpty();
        // what the API server would refuse past the schema: a mount of a volume that is not declared
        Set<String> declared = new LinkedHashSet<>(p.getVolumes().stream().map(Volume::getName).toList());
        assertThat(container(j).getVolumeMounts()).allSatisfy(m -> assertThat(declared).contains(m.getName()));
        // /var/tmp: the storage drill's default test file, hostside's stderr and the report's files
        VolumeMount varTmp = container(j).getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/var/tmp")).findFirst().orElseThrow();
        Volume scratch = p.getVolumes().stream().filter(v -> v.getName().equals(varTmp.getName())).findFirst().orElseThrow();
        assertThat(scratch.getEmptyDir()).as("an emptyDir: nothing of the node's but disk space").isNotNull();
        // over its sizeLimit the kubelet evicts the pod mid-report
        assertThat(Quantity.getAmountInBytes(scratch.getEmptyDir().getSizeLimit()).longValueExact())
                .isGreaterThan(IoDrill.DEFAULT_FILE + (256L << 20));
    }

    // ---------------------------------------------------------------------------------------------
    // The command, run

    /** The container's shell script, checked for the three paths the stand-in run moves into a temporary folder. */
    static String script(Job j) {
        Container c = container(j);
        assertThat(c.getArgs()).isNullOrEmpty();
        List<String> cmd = c.getCommand();
        assertThat(cmd).hasSize(3);
        assertThat(cmd.subList(0, 2)).containsExactly("/bin/sh", "-c");
        String s = cmd.get(2);
        assertThat(s).contains("/opt/hostside/hostside report --json", "/var/tmp/", "/dev/termination-log", "--name \"$NODE_NAME\"");
        assertThat(c.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("NODE_NAME");
            assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("spec.nodeName");
        });
        return s;
    }

    /** The result of the container's script with a stand-in for hostside, stdout and stderr merged as kubectl logs merges them. */
    record Run(int exit, String logs, String args, String terminationMessage) {}

    static Run run(Job j, Path tmp, boolean fail) throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("opt/hostside"));
        Path hostside = bin.resolve("hostside");
        // what the real one does: progress on stderr, the one JSON document on stdout, a reason and exit 1 on a failed drill
        Files.writeString(hostside, """
                #!/bin/sh
                printf '%s\\n' "$*" > "$ARGS_FILE"
                echo 'hostside: 1/6 machine: started (elapsed 0 s)' >&2
                if [ -n "$FAIL" ]; then echo 'hostside: the machine drill failed: cuInit returned 802' >&2; exit 1; fi
                printf '{\\n  "kind" : "report",\\n  "schema" : "hostside/2"\\n}\\n'
                echo 'hostside: 6/6 rack: ok in 0.1 s' >&2
                """);
        assertThat(hostside.toFile().setExecutable(true)).isTrue();
        Files.createDirectories(tmp.resolve("var/tmp"));
        Path termination = tmp.resolve("termination-log");
        Files.writeString(termination, ""); // the kubelet's empty file
        String s = script(j).replace("/opt/hostside/", bin + "/").replace("/var/tmp/", tmp.resolve("var/tmp") + "/")
                .replace("/dev/termination-log", termination.toString());
        // into a file, not a pipe: a script that hung would block a read, where the wait below ends it
        Path logs = tmp.resolve("logs");
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", s).redirectErrorStream(true).redirectOutput(logs.toFile());
        pb.environment().put("NODE_NAME", "gpu-node-07");
        pb.environment().put("ARGS_FILE", tmp.resolve("args").toString());
        if (fail) pb.environment().put("FAIL", "1");
        Process p = pb.start();
        try {
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the script ends").isTrue();
        } finally {
            p.destroyForcibly();
        }
        return new Run(p.exitValue(), Files.readString(logs), Files.readString(tmp.resolve("args")).strip(), Files.readString(termination));
    }

    @Test
    void whatKubectlLogsReturnsIsTheReportsJsonAndNothingElse(@TempDir Path tmp) throws Exception {
        Run r = run(job(), tmp, false);
        assertThat(r.exit()).isZero();
        // read as compare reads a report: one JSON document, nothing after it
        com.fasterxml.jackson.databind.JsonNode doc = Json.MAPPER.readerFor(com.fasterxml.jackson.databind.JsonNode.class)
                .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readValue(r.logs());
        assertThat(doc.path("kind").asText()).isEqualTo("report");
        assertThat(r.logs()).doesNotContain("hostside:");
        assertThat(r.args()).isEqualTo("report --json --out " + tmp.resolve("var/tmp/hostside") + " --name gpu-node-07");
        assertThat(r.terminationMessage()).as("nothing to explain").isEmpty();
    }

    @Test
    void aFailedReportFailsThePodWithItsReasonAsTheTerminationMessage(@TempDir Path tmp) throws Exception {
        Run r = run(job(), tmp, true);
        assertThat(r.exit()).as("the pod fails, so the index is marked failed").isEqualTo(1);
        assertThat(r.logs()).as("no half document for the collection loop").isEmpty();
        assertThat(r.terminationMessage()).contains("the machine drill failed: cuInit returned 802");
        assertThat(r.terminationMessage().getBytes(StandardCharsets.UTF_8).length).as("the kubelet keeps 4 KiB").isLessThanOrEqualTo(4096);
    }

    // ---------------------------------------------------------------------------------------------
    // Broken copies: the reading must refuse them, naming the field

    static Stream<Arguments> brokenCopies() {
        return Stream.of(
                broken("an unknown field in a selector", "spec.template.spec.topologySpreadConstraints[0].labelSelector.matchLabelz",
                        d -> ((ObjectNode) d.at("/spec/template/spec/topologySpreadConstraints/0/labelSelector")).putObject("matchLabelz").put("a", "b")),
                broken("a number where a string belongs", "spec.template.spec.containers[0].volumeMounts[0].mountPath",
                        d -> ((ObjectNode) d.at("/spec/template/spec/containers/0/volumeMounts/0")).put("mountPath", 7)),
                broken("a misspelt field of the Job", "spec.completionMod",
                        d -> rename((ObjectNode) d.get("spec"), "completionMode", "completionMod")),
                broken("a string where an integer belongs", "spec.completions",
                        d -> ((ObjectNode) d.get("spec")).put("completions", "4")),
                broken("a misspelt top-level field", "metdata",
                        d -> rename((ObjectNode) d, "metadata", "metdata")),
                broken("a pod field at the container's level", "spec.template.spec.containers[0].nodeSelector",
                        d -> ((ObjectNode) d.at("/spec/template/spec/containers/0")).putObject("nodeSelector").put("a", "b")),
                broken("a boolean where a string belongs", "spec.template.spec.containers[0].env[0].name",
                        d -> ((ObjectNode) d.at("/spec/template/spec/containers/0/env/0")).put("name", true)),
                broken("a list where a mapping belongs", "spec.template.spec.containers[0].resources.limits",
                        d -> ((ObjectNode) d.at("/spec/template/spec/containers/0/resources")).putArray("limits").add("nvidia.com/gpu")),
                broken("the model's catch-all written as a key", "spec.additionalProperties",
                        d -> ((ObjectNode) d.get("spec")).putObject("additionalProperties").put("a", "b")),
                broken("a kind this check has no model for", "not a kind this check knows",
                        d -> ((ObjectNode) d).put("kind", "Jobs")));
    }

    static Arguments broken(String what, String named, Consumer<JsonNode> mutation) {
        return Arguments.of(what, named, mutation);
    }

    static void rename(ObjectNode o, String from, String to) {
        JsonNode v = o.remove(from);
        assertThat(v).as(from).isNotNull();
        o.set(to, v);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenCopies")
    void aBrokenCopyOfTheJobIsRefusedNamingTheField(String what, String named, Consumer<JsonNode> mutation) throws Exception {
        JsonNode doc = STRICT.readTree(text(jobFile()));
        read("the shipped Job", doc); // the copy differs from a valid document only by the mutation
        JsonNode copy = doc.deepCopy();
        mutation.accept(copy);
        // written out and read back as a file is: the same way in as the shipped manifests
        String yaml = STRICT.writeValueAsString(copy);
        assertThatThrownBy(() -> read("broken copy", yaml)).as(what).isInstanceOf(Refused.class).hasMessageContaining(named);
    }

    /**
     * Why the any-setter is switched off: read as fabric8 reads it, a misspelt field is kept aside
     * in additionalProperties and the Job reads as valid, while the API server would refuse it (or,
     * without strict validation, drop it and run a Job that is not the one written).
     */
    @Test
    void fabric8sOwnReadingWouldHaveAcceptedTheMisspeltFieldInSilence() throws Exception {
        ObjectNode doc = (ObjectNode) STRICT.readTree(text(jobFile()));
        rename((ObjectNode) doc.get("spec"), "completionMode", "completionMod");
        Job lax = YAMLMapper.builder().build().treeToValue(doc, Job.class);
        assertThat(lax.getSpec().getCompletionMode()).isNull();
        assertThat(lax.getSpec().getAdditionalProperties()).containsEntry("completionMod", "Indexed");
        assertThatThrownBy(() -> read("strict", doc)).isInstanceOf(Refused.class).hasMessageContaining("spec.completionMod: unknown field");
    }

    @Test
    void aDuplicateKeyIsRefusedAsKubectlRefusesIt() throws Exception {
        String yaml = text(jobFile()).replaceFirst("(?m)^  completionMode: Indexed$", "  completionMode: Indexed\n  completionMode: NonIndexed");
        assertThat(yaml).contains("NonIndexed");
        assertThatThrownBy(() -> read("duplicate", yaml)).isInstanceOf(Refused.class).hasMessageContaining("completionMode");
    }

    @Test
    void secondDocumentsAreReadTooNotOnlyTheFirst() throws Exception {
        String good = text(jobFile());
        String twice = good + "\n---\n" + good.replace("  completionMode: Indexed", "  completionMode: Indexed\n  parallelizm: 4");
        assertThatThrownBy(() -> read("two documents", twice)).isInstanceOf(Refused.class)
                .hasMessageContaining("document 2").hasMessageContaining("spec.parallelizm");
    }

    // ---------------------------------------------------------------------------------------------
    // The README and the Dockerfile against the manifest

    @Test
    void theReadmesCommandsNameFilesThatExistAndTheJobAsItIsNamed() throws Exception {
        Path root = deploy().getParent().getParent();
        String readme = text(deploy().resolve("README.md"));
        Matcher m = Pattern.compile("(?:deploy/k8s/|docs/|src/)[\\w./-]*\\w").matcher(readme);
        List<String> named = new ArrayList<>();
        while (m.find()) named.add(m.group());
        assertThat(named).contains("deploy/k8s/hostside-job.yaml", "deploy/k8s/Dockerfile");
        assertThat(named).allSatisfy(f -> assertThat(root.resolve(f)).as(f).exists());
        Job j = job();
        String name = j.getMetadata().getName();
        assertThat(readme).contains("job-name=" + name, "job " + name, container(j).getImage());
        // the README counts the nodes by the label the Job selects them by
        assertThat(pod(j).getNodeSelector().keySet()).allSatisfy(k -> assertThat(readme).contains("-l " + k + "="));
    }

    @Test
    void theDockerfileInstallsHostsideWhereTheJobRunsItFromTheBundleTheReadmeBuilds() throws Exception {
        String docker = text(deploy().resolve("Dockerfile"));
        String readme = text(deploy().resolve("README.md"));
        String exe = script(job()).split("\\s+")[0];
        assertThat(exe).isEqualTo("/opt/hostside/hostside");
        assertThat(docker).contains("test -x " + exe, "-C " + exe.substring(0, exe.lastIndexOf('/')));
        Matcher bundle = Pattern.compile("source=([\\w.-]+\\.tar\\.gz)").matcher(docker);
        assertThat(bundle.find()).as("the Dockerfile's bundle").isTrue();
        assertThat(readme).contains(bundle.group(1), "-f deploy/k8s/Dockerfile");
        assertThat(docker.lines().filter(l -> l.startsWith("FROM ")).toList()).containsExactly("FROM debian:12-slim");
        assertThat(docker).as("a COPY would keep the tarball in a layer").doesNotContain("COPY ");
    }
}
