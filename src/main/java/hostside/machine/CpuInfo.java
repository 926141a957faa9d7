package hostside.machine;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import hostside.fs.FsRoot;

/** /proc/cpuinfo, one block per processor; its keys differ per architecture. */
record CpuInfo(Map<Integer, Map<String, String>> processors, Map<String, String> global) {

    static CpuInfo read(FsRoot fs) {
        return parse(fs.text("/proc/cpuinfo").orElse(""));
    }

    static CpuInfo parse(String text) {
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
    String model() {
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

    /**
     * arm64's /proc/cpuinfo names no model: its cores by their MIDR part ("Neoverse-V2", or
     * "Cortex-X925 + Cortex-A725" on a hybrid), "" when it has no part numbers either.
     */
    private String armCores() {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        for (Map<String, String> p : new java.util.TreeMap<>(processors).values()) {
            String part = p.get("CPU part");
            if (part == null) continue;
            try {
                int implementer = p.containsKey("CPU implementer") ? Integer.decode(p.get("CPU implementer")) : 0x41;
                names.add(ArmParts.name(implementer, Integer.decode(part)));
            } catch (NumberFormatException e) {
                // a part that is not a number names nothing
            }
        }
        return String.join(" + ", names);
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

    Optional<String> field(int cpu, String key) {
        Map<String, String> p = processors.get(cpu);
        return Optional.ofNullable(p == null ? null : p.get(key));
    }
}
