package hostside.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import hostside.core.BadInputException;
import hostside.core.Printable;
import hostside.fs.FsRoot;
import hostside.machine.MachineReader;
import hostside.machine.PciDevice;

/**
 * Prints one of deploy/'s fleet recipes filled in for this machine: its GPU count where the
 * recipe asks for every GPU of a node, and the path of the hostside that runs this command. It
 * never submits or runs anything: the engine is the user's (Slurm, Kubernetes, a parallel shell),
 * and what goes to a fleet should be read first. The recipes are the files of deploy/, carried
 * in the jar, so a bundle prints the same ones a clone has.
 */
@Command(name = "fleet", mixinStandardHelpOptions = true,
        header = "Fleet recipes (Slurm, k8s, pdsh) filled in for this machine.",
        description = {"Slurm: deploy/slurm/hostside.sbatch with --gpus-per-node set to this machine's GPUs (save it and sbatch -N <nodes> it). "
                + "k8s: deploy/k8s/hostside-job.yaml with nvidia.com/gpu set. pdsh, clush, ansible: deploy/pdsh.md's commands with this hostside's path.",
                "Run it on one node of the group the recipe is for: the GPU count is this machine's. It prints the recipe and never submits or runs anything."})
public final class FleetCommand implements Callable<Integer> {
    /** The engines a recipe exists for. */
    public enum Recipe { slurm, k8s, pdsh, clush, ansible }

    @Option(names = "--recipe", required = true, paramLabel = "ENGINE", description = "slurm, k8s, pdsh, clush or ansible.")
    Recipe recipe;

    @Option(names = "--root", paramLabel = "DIR|TARBALL", description = "Fill it in for a recorded machine (snapshot) instead of this one.")
    String root;

    @Spec
    CommandSpec spec;

    static final String SBATCH = "/hostside/deploy/slurm/hostside.sbatch", JOB = "/hostside/deploy/k8s/hostside-job.yaml", SHELLS = "/hostside/deploy/pdsh.md";
    /** Where deploy/pdsh.md and deploy/k8s install hostside on the nodes. */
    static final String NODE_PATH = "/opt/hostside/hostside";

    @Override
    public Integer call() {
        FsRoot fs = root == null ? FsRoot.live() : FsRoot.open(root);
        List<PciDevice> gpus = MachineReader.read(fs).gpus();
        String text = switch (recipe) {
            case slurm -> slurm(resource(SBATCH), gpus);
            case k8s -> k8s(resource(JOB), gpus);
            case pdsh, clush, ansible -> shell(resource(SHELLS), recipe.name(), hostsidePath());
        };
        var out = spec.commandLine().getOut();
        out.print(text);
        out.flush();
        return 0;
    }

    /**
     * "1 GPU (NVIDIA H200)", "8 GPUs (...)", or "no GPU" where none was found. The models are the
     * driver's words, or a recording's: printable, so a comment line of the script stays one line.
     */
    static String gpus(List<PciDevice> gpus) {
        if (gpus.isEmpty()) return "no GPU";
        String models = Printable.of(String.join(" + ", gpus.stream().map(g -> g.description().isEmpty() ? g.deviceId() : g.description()).distinct().toList()));
        return gpus.size() + (gpus.size() == 1 ? " GPU (" : " GPUs (") + models + ")";
    }

    /** The batch script with every GPU of the node asked for, beside the other #SBATCH lines. */
    public static String slurm(String script, List<PciDevice> gpus) {
        String filled = "# Filled in by hostside fleet --recipe slurm on a machine with " + gpus(gpus) + ".\n";
        if (gpus.isEmpty()) {
            filled += "# No GPU here: no --gpus-per-node line. Run this on a node of the group you will submit to, or add it by hand.\n";
            return insertAfterShebang(script, filled);
        }
        String line = String.format(Locale.ROOT, "#SBATCH --gpus-per-node=%d\n", gpus.size());
        int at = script.indexOf("#SBATCH --exclusive\n");
        if (at < 0) throw new IllegalStateException(SBATCH + " has no #SBATCH --exclusive line to add the GPUs after");
        at += "#SBATCH --exclusive\n".length();
        return insertAfterShebang(script.substring(0, at) + line + script.substring(at), filled);
    }

    private static String insertAfterShebang(String script, String lines) {
        int nl = script.indexOf('\n') + 1;
        return script.substring(0, nl) + lines + script.substring(nl);
    }

    private static final Pattern GPU_LIMIT = Pattern.compile("(?m)^(\\s*nvidia\\.com/gpu: )\\d+$");

    /** The Job with this machine's GPU count as the pod's limit; the product label stays for the user to set. */
    public static String k8s(String job, List<PciDevice> gpus) {
        Matcher m = GPU_LIMIT.matcher(job);
        if (!m.find()) throw new IllegalStateException(JOB + " has no nvidia.com/gpu limit to fill in");
        if (gpus.isEmpty()) {
            return "# Filled in by hostside fleet --recipe k8s on a machine with no GPU: the GPU limit is left as shipped; run this on a node of the group.\n" + job;
        }
        String head = "# Filled in by hostside fleet --recipe k8s on a machine with " + gpus(gpus) + ": nvidia.com/gpu is "
                + gpus.size() + ". The nodeSelector's product is still to set: kubectl get nodes -L nvidia.com/gpu.product\n";
        return head + m.replaceFirst("$1" + gpus.size());
    }

    /**
     * The engine's fenced block of deploy/pdsh.md. A parallel shell runs on the whole node, so no
     * GPU count goes in; the block installs the bundle at {@link #NODE_PATH}, and the header says
     * where this machine's hostside is, for nodes that share its folder instead.
     */
    static String shell(String doc, String engine, String hostside) {
        Matcher m = Pattern.compile("(?s)```" + engine + "\\n(.*?)```").matcher(doc);
        if (!m.find()) throw new IllegalStateException(SHELLS + " has no ```" + engine + " block");
        String head = "# hostside fleet --recipe " + engine + " (deploy/pdsh.md): set the node list (gpu[01-64] here) to yours.\n"
                + "# It installs a bundle (hostside bundle -o hostside-bundle.tar.gz) at " + NODE_PATH + (hostside.equals(NODE_PATH) ? ".\n"
                : "; where the nodes share this machine's folder, use " + hostside + " instead and skip the install.\n");
        return head + m.group(1);
    }

    /**
     * The launcher beside the jar this runs from: a bundle's hostside/hostside (its jar sits beside
     * it) or a clone's ./hostside (its jar is target/hostside.jar); the recipes' install path
     * when neither is found (a test run from classes).
     */
    static String hostsidePath() {
        var source = FleetCommand.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) return NODE_PATH;
        try {
            Path jar = Path.of(source.getLocation().toURI());
            Path dir = jar.getParent();
            if (dir != null && dir.getFileName() != null && dir.getFileName().toString().equals("target")) dir = dir.getParent();
            if (jar.toString().endsWith(".jar") && dir != null && java.nio.file.Files.isExecutable(dir.resolve("hostside"))) {
                return dir.resolve("hostside").toString();
            }
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            // not a file location: the install path the recipes use
        }
        return NODE_PATH;
    }

    static String resource(String name) {
        try (InputStream in = FleetCommand.class.getResourceAsStream(name)) {
            if (in == null) throw new BadInputException("this build has no " + name + " (rebuild: ./mvnw package)");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BadInputException(name + ": " + e.getMessage());
        }
    }
}
