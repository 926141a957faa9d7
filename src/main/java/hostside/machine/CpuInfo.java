package hostside.machine;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import hostside.fs.FsRoot;

/**
 * /proc/cpuinfo, one block per processor; its keys differ per architecture. The one reader of the
 * file: the topology's models and packages, the host's architecture and hypervisor flag, Module 2's
 * architecture and Module 5's Arm cores read it here.
 *
 * @param processors each "processor : N" block's lines, by N
 * @param global     the lines outside any block (s390's and old Arm's header)
 */
public record CpuInfo(Map<Integer, Map<String, String>> processors, Map<String, String> global) {

    public static CpuInfo read(FsRoot fs) {
        return parse(fs.text("/proc/cpuinfo").orElse(""));
    }

    public static CpuInfo parse(String text) {
        Map<Integer, Map<String, String>> procs = new LinkedHashMap<>();
        Map<String, String> global = new HashMap<>();
        Map<String, String> cur = null;
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            if (key.equals("processor")) {
                try {
                    cur = new HashMap<>();
                    procs.put(Integer.parseInt(value), cur);
                    continue;
                } catch (NumberFormatException e) {
                    cur = null; // old ARM kernels print "Processor : ARMv7 ..." instead of a model
                }
            }
            (cur != null ? cur : global).putIfAbsent(key, value);
        }
        return new CpuInfo(procs, global);
    }

    /** "model name" on x86, "cpu" on POWER, "Processor"/"model name" on Arm; "" when none. */
    public String model() {
        for (String key : new String[] {"model name", "cpu", "Processor", "cpu model", "family"}) {
            for (Map<String, String> p : processors.values()) {
                String v = p.get(key);
                if (v != null && !v.isEmpty()) return v;
            }
            String v = global.get(key);
            if (v != null && !v.isEmpty()) return v;
        }
        return armCores();
    }

    /** {@code key} of the first processor that has it, else of the lines outside the blocks. */
    public Optional<String> first(String key) {
        for (Map<String, String> p : processors.values()) {
            if (p.containsKey(key)) return Optional.of(p.get(key));
        }
        return Optional.ofNullable(global.get(key));
    }

    /**
     * arm64's /proc/cpuinfo names no model: its cores by their MIDR part ("Neoverse-V2", or
     * "Cortex-X925 + Cortex-A725" on a hybrid), "" when it has no part numbers either.
     */
    private String armCores() {
        return String.join(" + ", armParts());
    }

    /** The distinct Arm core names, from each processor's "CPU implementer" and "CPU part", in processor order. */
    public List<String> armParts() {
        Set<String> names = new LinkedHashSet<>();
        for (Map<String, String> p : new TreeMap<>(processors).values()) {
            String part = p.get("CPU part");
            if (part == null) continue;
            try {
                int implementer = p.containsKey("CPU implementer") ? Integer.decode(p.get("CPU implementer")) : 0x41;
                names.add(ArmParts.name(implementer, Integer.decode(part)));
            } catch (NumberFormatException e) {
                // a part that is not a number names nothing
            }
        }
        return List.copyOf(names);
    }

    Optional<Integer> physicalId(int cpu) {
        return field(cpu, "physical id").flatMap(v -> {
            try {
                return Optional.of(Integer.parseInt(v));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }

    public Optional<String> field(int cpu, String key) {
        Map<String, String> p = processors.get(cpu);
        return Optional.ofNullable(p == null ? null : p.get(key));
    }
}
