package hostside.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Json;
import hostside.core.Style;
import hostside.doc.TextRenderer;

/**
 * What the container reader keeps of PID 1: its executable's name, never its arguments, and of
 * its environment the container= variable only. Read from recorded machines; the live case, in a
 * PID namespace of the test's own, is {@link hostside.PlantedSecretTest}.
 */
class Pid1PrivacyTest {
    static final String TOKEN = "hf_ArgumentTokenNotForTheReport";
    static final String KEY = "AKIAEnvironmentKeyNotForTheReport";

    @TempDir
    Path tmp;

    private static String json(Rig r) {
        return Json.write(ContainerRun.read(r.fs(), r.live(), null, null, null).json());
    }

    @Test
    void pid1IsItsExecutablesNameNeverItsArguments() {
        Rig r = Rig.v2(tmp).pid1("/usr/local/bin/torchrun", "--nproc-per-node=8", "train.py", "--hf-token=" + TOKEN);
        ContainerFacts f = r.read();
        assertThat(f.namespaces().pid1()).isEqualTo("torchrun");
        assertThat(f.namespaces().pid1Kind()).isEqualTo("program");
        assertThat(json(r)).contains("\"pid1\" : \"torchrun\"").doesNotContain(TOKEN).doesNotContain("train.py");
        assertThat(new TextRenderer(Style.plain()).render(ContainerDocument.of(ContainerRun.read(r.fs(), r.live(), null, null, null))))
                .contains("torchrun (program)").doesNotContain(TOKEN);
    }

    @Test
    void theKindComesFromTheNameAlone() {
        assertThat(Rig.v2(tmp.resolve("a")).pid1("/usr/bin/tini", "--", "python", "train.py").read().namespaces())
                .satisfies(n -> assertThat(n.pid1()).isEqualTo("tini")).satisfies(n -> assertThat(n.pid1Kind()).isEqualTo("init"));
        assertThat(Rig.v2(tmp.resolve("b")).pid1("-bash").read().namespaces().pid1Kind()).as("a login shell").isEqualTo("shell");
        assertThat(Rig.v2(tmp.resolve("c")).pid1("python3 train.py --token=" + TOKEN).read().namespaces().pid1())
                .as("a title rewritten by setproctitle").isEqualTo("python3");
    }

    @Test
    void commWhenTheCommandLineIsEmpty() {
        Rig r = Rig.v2(tmp).put("/proc/1/cmdline", "").put("/proc/1/comm", "dumb-init\n");
        assertThat(r.read().namespaces().pid1()).isEqualTo("dumb-init");
        assertThat(r.read().namespaces().pid1Kind()).isEqualTo("init");
    }

    @Test
    void pid1sContainerVariableIsFoundAndNothingElseOfItsEnvironmentIsKept() {
        Rig r = Rig.host(tmp).put("/proc/1/environ", "HOME=/root\0AWS_SECRET_ACCESS_KEY=" + KEY + "\0container=systemd-nspawn\0");
        ContainerFacts f = r.read();
        assertThat(f.runtime().inContainer()).isTrue();
        assertThat(f.runtime().runtime()).isEqualTo("systemd-nspawn");
        assertThat(f.runtime().evidence()).contains("container=systemd-nspawn in PID 1's environment");
        assertThat(json(r)).doesNotContain(KEY).doesNotContain("AWS_SECRET_ACCESS_KEY");
    }

    @Test
    void aVariableWhoseNameOnlyStartsWithContainerIsNotIt() {
        Rig r = Rig.host(tmp).put("/proc/1/environ", "containerd_sock=/run/containerd.sock\0");
        assertThat(r.read().runtime().inContainer()).isFalse();
    }
}
