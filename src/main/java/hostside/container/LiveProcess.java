package hostside.container;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What only the running process can know, and a recording cannot hold: its environment and the
 * statvfs of its /dev/shm. The command fills it from this JVM; tests fill it by hand.
 *
 * @param live     false for a recorded machine: every field below is then unknown
 * @param env      the variables that matter here (see {@link #VARIABLES}); unset ones are absent
 * @param shmBytes /dev/shm's size by statvfs; null when unknown
 * @param shmUsed  bytes in use there; null when unknown
 * @param shmWhy   why the two are unknown, "" when known
 */
public record LiveProcess(boolean live, Map<String, String> env, Long shmBytes, Long shmUsed, String shmWhy) {
    public static final String RECORDED = "recorded machine";

    /** The variables read: what CUDA sees, what the NVIDIA runtime was asked for, Kubernetes, thread pools. */
    public static final List<String> VARIABLES = List.of("CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES",
            "KUBERNETES_SERVICE_HOST", "container", "OMP_NUM_THREADS");

    public LiveProcess {
        env = Map.copyOf(env);
    }

    /** This JVM's. */
    public static LiveProcess current() {
        Map<String, String> env = new LinkedHashMap<>();
        for (String v : VARIABLES) {
            String value = System.getenv(v);
            if (value != null) env.put(v, value);
        }
        Path shm = Path.of("/dev/shm");
        if (!Files.isDirectory(shm)) return new LiveProcess(true, env, null, null, "/dev/shm: missing");
        try {
            FileStore store = Files.getFileStore(shm);
            long total = store.getTotalSpace();
            return new LiveProcess(true, env, total, total - store.getUnallocatedSpace(), "");
        } catch (IOException e) {
            return new LiveProcess(true, env, null, null, "/dev/shm: statvfs failed: " + e.getMessage());
        }
    }

    /** For a recorded machine: nothing live is known. */
    public static LiveProcess recorded() {
        return new LiveProcess(false, Map.of(), null, null, RECORDED);
    }

    /** A test's or a caller's own: a live process with this environment and /dev/shm. */
    public static LiveProcess of(Map<String, String> env, Long shmBytes, Long shmUsed) {
        return new LiveProcess(true, env, shmBytes, shmUsed, shmBytes == null ? "/dev/shm: not given" : "");
    }
}
