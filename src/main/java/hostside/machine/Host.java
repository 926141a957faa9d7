package hostside.machine;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import hostside.fs.FsRoot;
import hostside.fs.KernelVersion;

/**
 * Which machine the facts are about.
 *
 * @param name           the short host name ("" when the recording does not hold it)
 * @param kernel         the kernel release
 * @param architecture   x86_64, aarch64, ppc64le... from the CPU, "" when unknown
 * @param virtualization "VM (KVM)", "VM", or "none detected"
 * @param nvidiaDriver   the NVIDIA kernel module's version, "" when it is not loaded
 * @param openKernelModules whether that module is NVIDIA's open kernel module (its version line
 *                       says "Open Kernel Module"), which DMA-BUF registration needs; null when
 *                       no driver is loaded or the recording does not hold its version file
 * @param source         "live" or the recording read through --root
 */
public record Host(String name, String kernel, String architecture, String virtualization, String nvidiaDriver,
                   Boolean openKernelModules, String source) {

    /** {@link #source()} of facts read from the machine this runs on. */
    public static final String LIVE = "live";

    /** The NVIDIA kernel module's version line, read once here for the driver and its kind. */
    static final String NVIDIA_VERSION = "/proc/driver/nvidia/version";
    private static final Pattern DRIVER = Pattern.compile("NVRM version:.*?\\s(\\d+\\.\\d+(?:\\.\\d+)?)\\s");

    /** True for facts read from this machine, false for a recording (where nothing is measured). */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean live() {
        return LIVE.equals(source);
    }

    /** The host as any drill names it (reads /proc/cpuinfo for the architecture and hypervisor flag). */
    public static Host read(FsRoot fs) {
        return read(fs, CpuInfo.read(fs));
    }

    static Host read(FsRoot fs, CpuInfo cpuinfo) {
        String name = fs.text("/proc/sys/kernel/hostname").map(Host::shortName).orElse("");
        KernelVersion kernelFiles = KernelVersion.read(fs);
        String kernel = kernelFiles.release().orElse("");
        Optional<String> driver = fs.text(NVIDIA_VERSION);
        return new Host(name, kernel, architecture(kernelFiles, cpuinfo), virtualization(fs, cpuinfo),
                driver.map(Host::driverVersion).orElse(""), driver.map(v -> v.contains("Open Kernel Module")).orElse(null),
                fs.isLive() ? LIVE : fs.describe());
    }

    /**
     * What comes before the first dot: "gpu17" of "gpu17.example.com". sethostname(2) takes any
     * bytes, "." and ".." among them: a name of dots, or one that starts with a dot, has no short
     * name ("", as a recording without the file).
     */
    static String shortName(String hostname) {
        int dot = hostname.indexOf('.');
        return dot < 0 ? hostname : hostname.substring(0, dot);
    }

    /** From "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...". */
    static String driverVersion(String versionFile) {
        Matcher m = DRIVER.matcher(versionFile + " ");
        return m.find() ? m.group(1) : "";
    }

    private static String architecture(KernelVersion kernel, CpuInfo cpuinfo) {
        if (cpuinfo.field(cpuinfo.processors().keySet().stream().findFirst().orElse(0), "vendor_id").isPresent()) return "x86_64";
        String v = kernel.line();
        if (v.contains("aarch64") || cpuinfo.processors().values().stream().anyMatch(p -> p.containsKey("CPU implementer"))) return "aarch64";
        if (cpuinfo.model().startsWith("POWER")) return "ppc64";
        return "";
    }

    /** Derived from {@link #virtualization}, so not a key of its own in the JSON. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isVm() {
        return virtualization.startsWith("VM");
    }

    private static String virtualization(FsRoot fs, CpuInfo cpuinfo) {
        boolean flag = cpuinfo.processors().values().stream()
                .anyMatch(p -> (" " + p.getOrDefault("flags", "") + " ").contains(" hypervisor "));
        String product = fs.text("/sys/class/dmi/id/product_name").orElse("");
        String vendor = fs.text("/sys/class/dmi/id/sys_vendor").orElse("");
        String dmi = (vendor + " " + product).strip();
        boolean dmiSaysVm = dmi.matches("(?i).*(kvm|qemu|vmware|virtualbox|xen|amazon ec2|google compute|microsoft corporation virtual|openstack|cloud hypervisor|firecracker).*");
        if (flag || dmiSaysVm) return dmi.isEmpty() ? "VM" : "VM (" + dmi + ")";
        return "none detected";
    }
}
