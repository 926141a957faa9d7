package hostside.container;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import hostside.container.ContainerFacts.Detection;
import hostside.container.ContainerFacts.Namespaces;
import hostside.fs.FsRoot;
import hostside.fs.Mounts.Mount;

/**
 * Whether this process runs in a container, and whose: the files runtimes leave (/.dockerenv,
 * /run/.containerenv), the container= variable they give PID 1, the cgroup paths they create,
 * Kubernetes' service variables and token; failing those, a PID namespace of its own. Every
 * mark found is kept as evidence, and so is their absence.
 */
final class RuntimeDetector {
    /** Fragments of cgroup paths that runtimes create, most specific first. */
    private static final List<String[]> CGROUP_MARKS = List.of(
            new String[] {"kubepods", "kubernetes"}, new String[] {"libpod", "podman"}, new String[] {"crio-", "cri-o"},
            new String[] {"/docker/", "docker"}, new String[] {"docker-", "docker"}, new String[] {"cri-containerd", "containerd"},
            new String[] {"nerdctl-", "containerd"}, new String[] {"/lxc/", "lxc"}, new String[] {"lxc.payload", "lxc"},
            new String[] {"machine-", "systemd-nspawn"});
    static final String K8S_TOKEN = "/var/run/secrets/kubernetes.io";

    private RuntimeDetector() {}

    static Detection detect(FsRoot fs, LiveProcess live, Namespaces ns, List<Mount> mounts) {
        List<String> evidence = new ArrayList<>();
        Set<String> runtimes = new LinkedHashSet<>();
        boolean kubernetes = false;
        if (fs.exists("/.dockerenv")) {
            evidence.add("/.dockerenv exists");
            runtimes.add("docker");
        }
        if (fs.exists("/run/.containerenv")) {
            String engine = fs.text("/run/.containerenv").flatMap(RuntimeDetector::engine).orElse("podman");
            evidence.add("/run/.containerenv exists" + (engine.equals("podman") ? "" : " (engine " + engine + ")"));
            runtimes.add(engine);
        }
        Optional<String> pid1Container = containerVariable(fs);
        Optional<String> myContainer = Optional.ofNullable(live.env().get("container"));
        for (Optional<String> c : List.of(pid1Container, myContainer)) {
            if (c.isEmpty() || c.get().isBlank()) continue;
            evidence.add("container=" + c.get() + (c == pid1Container ? " in PID 1's environment" : " in this process's environment"));
            runtimes.add(c.get().equals("oci") ? "unknown runtime" : c.get());
        }
        for (String who : List.of("self", "1")) {
            String text = fs.text("/proc/" + who + "/cgroup").orElse("");
            for (String line : text.split("\n")) {
                String path = line.contains(":") ? line.substring(line.lastIndexOf(':') + 1) : "";
                String mark = mark(path);
                if (mark == null) continue;
                evidence.add("/proc/" + who + "/cgroup: " + path.strip());
                if (mark.equals("kubernetes")) kubernetes = true;
                else runtimes.add(mark);
                break;
            }
        }
        if (live.env().containsKey("KUBERNETES_SERVICE_HOST")) {
            evidence.add("KUBERNETES_SERVICE_HOST is set");
            kubernetes = true;
        }
        if (fs.isDirectory(K8S_TOKEN)) {
            evidence.add(K8S_TOKEN + " exists (a service account token)");
            kubernetes = true;
        }
        Mount root = null;
        for (Mount m : mounts) if (m.point().equals("/")) root = m;
        boolean stale = onlyStaleFiles(runtimes, kubernetes, evidence, root);
        if (stale) {
            evidence.add("but no cgroup path names a runtime and / is " + root.type() + ", not an image's overlay: likely a file left "
                    + "in the image this root was made from");
            runtimes.clear();
        }
        boolean marked = !runtimes.isEmpty() || kubernetes;
        if (Boolean.TRUE.equals(ns.ownPid())) evidence.add(ns.ownPidWhy());
        if (marked && root != null && root.type().equals("overlay")) evidence.add("/ is an overlay file system (an image's layers)");
        boolean in = marked || Boolean.TRUE.equals(ns.ownPid());
        String summary;
        if (in) {
            summary = evidence.getFirst();
        } else {
            if (Boolean.FALSE.equals(ns.ownPid())) evidence.add(ns.ownPidWhy());
            evidence.add(!fs.isLive() ? "no container= variable or runtime cgroup path in the recording (/.dockerenv and the environment are not recorded)"
                    : stale ? "no other mark: no container= variable, runtime cgroup path or Kubernetes token"
                    : "no /.dockerenv, /run/.containerenv, container= variable, runtime cgroup path or Kubernetes token");
            summary = Boolean.FALSE.equals(ns.ownPid()) ? ns.ownPidWhy() : fs.isLive() ? "no runtime marks" : "no runtime marks in the recording";
        }
        String runtime = runtimes.stream().filter(r -> !r.equals("unknown runtime")).findFirst()
                .orElse(in ? (kubernetes ? "kubernetes" : "unknown runtime") : null);
        if (kubernetes && runtime != null && !runtime.equals("kubernetes")) runtime = runtime + " (Kubernetes)";
        return new Detection(in, runtime, kubernetes, summary, List.copyOf(evidence));
    }

    /**
     * A runtime's file and nothing else, on a root that is not an overlay: runtimes unpack images
     * into overlays (other storage drivers are rare), while machines whose root was built from a
     * container image keep its /.dockerenv.
     */
    private static boolean onlyStaleFiles(Set<String> runtimes, boolean kubernetes, List<String> evidence, Mount root) {
        boolean onlyFiles = !runtimes.isEmpty() && !kubernetes
                && evidence.stream().allMatch(e -> e.startsWith("/.dockerenv") || e.startsWith("/run/.containerenv"));
        return onlyFiles && root != null && !root.type().equals("overlay");
    }

    static String mark(String cgroupPath) {
        for (String[] m : CGROUP_MARKS) if (cgroupPath.contains(m[0])) return m[1];
        return null;
    }

    /** /run/.containerenv's engine="podman-5.0.2" line. */
    private static Optional<String> engine(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("engine=")) {
                String e = line.substring(7).replace("\"", "").strip();
                return Optional.of(e.replaceFirst("-[0-9].*$", ""));
            }
        }
        return Optional.empty();
    }

    /**
     * container= in PID 1's environment, which podman, systemd-nspawn and LXC set. Only that one
     * variable is read, and nothing is recorded: the rest of a training entrypoint's environment
     * is its cloud keys and tokens.
     */
    private static Optional<String> containerVariable(FsRoot fs) {
        return fs.environVariable("/proc/1/environ", "container").map(String::strip);
    }
}
