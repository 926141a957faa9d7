package hostside.vm.facts;

import java.util.Optional;

import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.KernelVersion;
import hostside.machine.CpuInfo;
import hostside.vm.facts.VmFacts.Arch;

/**
 * The machine's architecture, for the page sizes it allows: the kernel's own word where it gives
 * one, else what /proc/cpuinfo and /proc/version show, else (live) the JVM's.
 */
final class ArchReader {
    private ArchReader() {}

    static Arch read(FsRoot fs, FactReads reads) {
        Optional<String> k = reads.text("/proc/sys/kernel/arch", false);
        if (k.isPresent()) {
            if (k.get().matches("[a-z][a-z0-9_]{1,15}")) return new Arch(k.get(), "/proc/sys/kernel/arch");
            reads.garbage("/proc/sys/kernel/arch", "not an architecture", k.get());
        }
        CpuInfo cpu = CpuInfo.read(fs);
        String vendor = cpu.first("vendor_id").orElse(null);
        if (vendor != null && vendor.startsWith("IBM/S390")) return new Arch("s390x", "/proc/cpuinfo: vendor_id " + vendor);
        if (vendor != null) {
            Optional<String> flags = cpu.first("flags");
            if (flags.isEmpty() || (" " + flags.get() + " ").contains(" lm ")) {
                return new Arch("x86_64", "/proc/cpuinfo: vendor_id " + vendor + (flags.isPresent() ? " with the lm flag" : ""));
            }
            return new Arch("i686", "/proc/cpuinfo: vendor_id " + vendor + " without the lm (64-bit) flag");
        }
        String impl = cpu.first("CPU implementer").orElse(null);
        if (impl != null) {
            String v = cpu.first("CPU architecture").orElse("");
            String features = " " + cpu.first("Features").orElse("") + " ";
            boolean v8 = v.matches("\\d+") && Integer.parseInt(v) >= 8 || v.startsWith("AArch64") || features.contains(" asimd ");
            return new Arch(v8 ? "aarch64" : "arm", "/proc/cpuinfo: CPU implementer " + impl
                    + (v.isEmpty() ? "" : ", CPU architecture " + v));
        }
        String cpuName = cpu.first("cpu").orElse("");
        if (cpuName.startsWith("POWER")) return new Arch("ppc64le", "/proc/cpuinfo: cpu " + cpuName + " (endianness not shown there)");
        String isa = cpu.first("isa").orElse("");
        if (isa.startsWith("rv64")) return new Arch("riscv64", "/proc/cpuinfo: isa " + isa);
        String version = KernelVersion.read(fs).line();
        if (version.contains("aarch64")) return new Arch("aarch64", "/proc/version names aarch64 (the kernel compiler's target)");
        if (version.contains("x86_64") || version.contains("x86-64")) return new Arch("x86_64", "/proc/version names x86_64 (the kernel compiler's target)");
        if (fs.isLive()) {
            String os = System.getProperty("os.arch", "");
            String name = switch (os) {
                case "amd64", "x86_64" -> "x86_64";
                case "aarch64", "arm64" -> "aarch64";
                case "ppc64le", "s390x", "riscv64" -> os;
                default -> null;
            };
            if (name != null) return new Arch(name, "the JVM's os.arch (" + os + ")");
        }
        return new Arch(null, "unknown (no /proc/sys/kernel/arch, and neither /proc/cpuinfo nor /proc/version names the architecture)");
    }
}
