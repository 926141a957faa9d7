package hostside.io.facts;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

import hostside.fs.FsRoot;
import hostside.fs.Read;
import hostside.io.facts.IoFacts.CuFile;
import hostside.io.facts.IoFacts.GpuDirect;
import hostside.machine.Host;

/**
 * GPUDirect RDMA (nvidia_peermem, or nv_peer_mem from MLNX_OFED before it) and GPUDirect Storage
 * (nvidia_fs, configured by /etc/cufile.json).
 */
final class GpuDirectReader {
    static final String CUFILE = "/etc/cufile.json";
    /** NVIDIA ships cufile.json with // comments; some copies keep a trailing comma. */
    private static final JsonMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA).build();

    private final FsRoot fs;
    private final Host host;
    private final List<String> unknowns;

    /** @param host the machine's facts, read once with Module 1's: the driver's kind and the kernel release */
    GpuDirectReader(FsRoot fs, Host host, List<String> unknowns) {
        this.fs = fs;
        this.host = host;
        this.unknowns = unknowns;
    }

    GpuDirect read() {
        Read modules = fs.read("/proc/modules");
        Set<String> listed = new HashSet<>();
        if (modules instanceof Read.Ok ok) {
            for (String line : ok.text().split("\n")) {
                String[] w = line.strip().split("\\s+");
                if (!w[0].isEmpty()) listed.add(w[0]);
            }
        }
        // Kernels without module support (some VMs) have no /proc/modules; /sys/module still lists
        // what is loaded or built in.
        boolean sysModule = fs.isDirectory("/sys/module");
        String source = modules.ok() ? "/proc/modules" : sysModule ? "/sys/module" : null;
        if (source == null) {
            source = modules.why() + ", and no /sys/module";
            unknowns.add("kernel modules: " + source);
        }
        boolean known = modules.ok() || sysModule;
        String peer = loaded("nvidia_peermem", listed) ? "nvidia_peermem" : loaded("nv_peer_mem", listed) ? "nv_peer_mem" : null;
        Boolean peermem = peer != null ? Boolean.TRUE : known ? Boolean.FALSE : null;
        Boolean nvidiaFs = loaded("nvidia_fs", listed) ? Boolean.TRUE : known ? Boolean.FALSE : null;
        // DMA-BUF registration needs the driver's open kernel modules and Linux 5.12
        String release = host.kernel().isEmpty() ? null : host.kernel();
        return new GpuDirect(peermem, peer, nvidiaFs, source, cufile(), host.openKernelModules(), release);
    }

    private boolean loaded(String module, Set<String> listed) {
        return listed.contains(module) || fs.isDirectory("/sys/module/" + module);
    }

    CuFile cufile() {
        Read r = fs.read(CUFILE);
        if (r instanceof Read.Failed f) {
            if (f.reason().equals("missing")) return new CuFile(CUFILE, false, null, null, null);
            unknowns.add(r.why());
            return new CuFile(CUFILE, true, f.reason(), null, null);
        }
        try {
            JsonNode root = LENIENT.readTree(((Read.Ok) r).text());
            if (root == null || !root.isObject()) return new CuFile(CUFILE, true, "not a JSON object", null, null);
            JsonNode props = root.path("properties");
            return new CuFile(CUFILE, true, null, flag(props, "allow_compat_mode"), flag(props, "use_poll_mode"));
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
            String why = "not JSON" + where + ": " + e.getOriginalMessage().lines().findFirst().orElse("");
            unknowns.add(CUFILE + ": " + why);
            return new CuFile(CUFILE, true, why, null, null);
        }
    }

    private static Boolean flag(JsonNode props, String name) {
        JsonNode n = props.get(name);
        return n != null && n.isBoolean() ? n.booleanValue() : null;
    }
}
