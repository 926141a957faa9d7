package hostside.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.Fixtures;
import hostside.cli.FleetCommand;
import hostside.cli.Main;
import io.fabric8.kubernetes.api.model.batch.v1.Job;

/** hostside fleet --recipe: deploy/'s files, filled in for the machine, still valid for their engine. */
class FleetRecipeTest {
    @TempDir
    Path tmp;

    record Out(int code, String out, String err) {}

    static Out fleet(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "fleet";
        System.arraycopy(args, 0, all, 1, args.length);
        int code = Main.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Out(code, out.toString(), err.toString());
    }

    static String h200() {
        return Fixtures.h200().toString();
    }

    @Test
    void theJarCarriesDeploysFilesAsTheyAre() throws Exception {
        // the recipe a bundle prints is the one the repository ships and CI runs
        for (String f : List.of("slurm/hostside.sbatch", "k8s/hostside-job.yaml", "pdsh.md")) {
            try (var in = FleetCommand.class.getResourceAsStream("/hostside/deploy/" + f)) {
                assertThat(in).as(f).isNotNull();
                assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).as(f).isEqualTo(Files.readString(Path.of("deploy", f)));
            }
        }
    }

    @Test
    void slurmAsksForEveryGpuOfTheNode() throws Exception {
        Out r = fleet("--recipe", "slurm", "--root", h200());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("#SBATCH --gpus-per-node="))).containsExactly("#SBATCH --gpus-per-node=1");
        assertThat(r.out()).contains("#SBATCH --exclusive\n#SBATCH --gpus-per-node=1\n").startsWith("#!/usr/bin/env bash\n# Filled in by hostside fleet --recipe slurm on a machine with 1 GPU");
        // the rest is the shipped script, line for line
        String shipped = Files.readString(Path.of("deploy/slurm/hostside.sbatch"));
        String back = r.out().replace("#SBATCH --gpus-per-node=1\n", "").replaceFirst("(?m)^# Filled in by hostside fleet.*\\n", "");
        assertThat(back).isEqualTo(shipped);
        // and bash reads it
        Path script = Files.writeString(tmp.resolve("hostside.sbatch"), r.out());
        Process p = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes())).isZero();
    }

    @Test
    void slurmOnAMachineWithoutAGpuAddsNoGpuLine() {
        String shipped = "#!/usr/bin/env bash\n#SBATCH --exclusive\necho hi\n";
        String out = FleetCommand.slurm(shipped, List.of());
        assertThat(out).doesNotContain("#SBATCH --gpus-per-node").contains("No GPU here").endsWith("#SBATCH --exclusive\necho hi\n");
    }

    @Test
    void k8sLimitsThePodToThisMachinesGpusAndStaysAValidJob() throws Exception {
        Out r = fleet("--recipe", "k8s", "--root", h200());
        assertThat(r.code()).as(r.err()).isZero();
        var docs = KubernetesManifestsTest.read("fleet --recipe k8s", r.out());
        assertThat(docs).singleElement().isInstanceOf(Job.class);
        Job job = (Job) docs.getFirst();
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().getFirst().getResources().getLimits().get("nvidia.com/gpu").getAmount()).isEqualTo("1");
        assertThat(r.out()).startsWith("# Filled in by hostside fleet --recipe k8s on a machine with 1 GPU");
        // without a GPU the limit stays as shipped, and the header says why
        assertThat(FleetCommand.k8s(Files.readString(Path.of("deploy/k8s/hostside-job.yaml")), List.of())).contains("nvidia.com/gpu: 8").startsWith("# Filled in")
                .contains("no GPU");
    }

    @Test
    void theParallelShellsPrintTheirBlockOfPdshMd() {
        assertThat(fleet("--recipe", "pdsh").out()).contains("pdsh -w gpu[01-64] '/opt/hostside/hostside report --quick --out /var/tmp/hostside --name %h' | dshbak -c")
                .contains("rpdcp").doesNotContain("```").doesNotContain("clush");
        assertThat(fleet("--recipe", "clush").out()).contains("--rcopy /var/tmp/hostside --dest fleet/").doesNotContain("pdsh -w");
        assertThat(fleet("--recipe", "ansible").out()).contains("ansible.builtin.fetch:").contains("flat: true");
    }

    @Test
    void anUnknownEngineIsOneLine() {
        Out r = fleet("--recipe", "lsf");
        assertThat(r.code()).isEqualTo(Main.BAD_INPUT);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("slurm, k8s, pdsh, clush, ansible");
        assertThat(fleet().code()).as("--recipe is required").isEqualTo(Main.BAD_INPUT);
    }
}
