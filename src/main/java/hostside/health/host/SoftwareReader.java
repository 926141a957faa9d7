package hostside.health.host;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import hostside.core.Printable;
import hostside.fs.FactReads;
import hostside.fs.FsRoot;

/**
 * Reads {@link SoftwareStack} through {@link FsRoot}: /sys/module/nvidia, /proc/driver/nvidia/version,
 * a few library folders of /usr (listed, never walked), the dpkg database and pip's folders. A
 * recording answers for /usr and /var what it holds under its own root.
 */
public final class SoftwareReader {
    static final String MODULE = "/sys/module/nvidia";
    static final String PROC_VERSION = "/proc/driver/nvidia/version";
    static final String DPKG_STATUS = "/var/lib/dpkg/status";
    /**
     * Where distributions and NVIDIA's installers put the driver's libraries: Debian and Ubuntu's
     * multiarch folders, RHEL's lib64, the GPU operator's and container toolkit's /usr/local/nvidia,
     * and the CUDA toolkit's lib64 (where a tarball NCCL often lands). A folder reached twice through
     * a link (/lib is /usr/lib on merged-/usr systems) is read once.
     */
    static final List<String> LIBRARY_DIRS = List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
            "/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/lib64", "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/local/cuda/lib64");
    /** Where pip installs for the system's Pythons and conda's base: each holds python3.X/{site,dist}-packages. */
    static final List<String> PYTHON_ROOTS = List.of("/usr/lib", "/usr/local/lib", "/usr/lib64", "/usr/local/lib64", "/opt/conda/lib");
    /** NVIDIA's packages that a health check compares; libnccl2 by its whole name (libnccl-dev's version is the same install's). */
    static final List<String> PACKAGE_PREFIXES = List.of("nvidia-fabricmanager", "nvidia-fabric-manager", "nvidia-imex", "cuda-drivers",
            "nvidia-driver", "libnvidia-compute", "datacenter-gpu-manager");
    static final String NCCL_PACKAGE = "libnccl2";

    static final String NVML_SONAME = "libnvidia-ml.so.1";
    static final String CUDA_SONAME = "libcuda.so.1";
    private static final Pattern NVML_FILE = Pattern.compile("libnvidia-ml\\.so\\.(\\d+(?:\\.\\d+)+)");
    private static final Pattern CUDA_FILE = Pattern.compile("libcuda\\.so\\.(\\d+(?:\\.\\d+)+)");
    private static final Pattern NCCL_FILE = Pattern.compile("libnccl\\.so\\.(\\d+\\.\\d+\\.\\d+)");
    private static final Pattern PYTHON_DIR = Pattern.compile("python3(?:\\.\\d+)?");
    /** The wheels nvidia-nccl-cu12, nvidia-nccl-cu13: their dist-info folder, as pip names it. */
    private static final Pattern NCCL_WHEEL = Pattern.compile("nvidia_nccl_cu\\d+-[^/]+\\.dist-info");
    /** "NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ..." or "NVIDIA UNIX x86_64 Kernel Module  515.76  Mon Sep ...". */
    private static final Pattern LINE_VERSION = Pattern.compile("Kernel Module(?: for \\S+)?\\s+(\\d+(?:\\.\\d+)+)");

    private SoftwareReader() {}

    public static SoftwareStack read(FsRoot fs) {
        List<String> unknowns = new ArrayList<>();
        FactReads reads = new FactReads(fs, unknowns);
        String module = reads.text(MODULE + "/version", false).map(Printable::of).orElse(null);
        String taint = reads.text(MODULE + "/taint", false).map(Printable::of).orElse(null);
        String line = reads.text(PROC_VERSION, false).map(t -> Printable.of(t.lines().findFirst().orElse("").strip())).orElse(null);
        String lineVersion = line == null ? null : lineVersion(line);
        if (line != null && lineVersion == null) unknowns.add(PROC_VERSION + ": no version after \"Kernel Module\" in \"" + FactReads.shown(line) + "\"");

        List<String> dirs = libraryDirs(fs);
        List<LibraryFile> nvml = new ArrayList<>(), cuda = new ArrayList<>();
        List<NcclInstall> nccl = new ArrayList<>();
        for (String dir : dirs) {
            soname(fs, dir, NVML_SONAME, NVML_FILE, unknowns).ifPresent(f -> addOnce(nvml, f));
            soname(fs, dir, CUDA_SONAME, CUDA_FILE, unknowns).ifPresent(f -> addOnce(cuda, f));
            for (String name : fs.list(dir)) {
                Matcher m = NCCL_FILE.matcher(name);
                if (m.matches()) nccl.add(new NcclInstall(NcclSource.LIBRARY, dir + "/" + name, m.group(1)));
            }
        }
        nccl.addAll(wheels(fs, reads, unknowns));
        List<DpkgPackage> packages = reads.text(DPKG_STATUS, false).map(t -> packages(t, unknowns)).orElse(null);
        return new SoftwareStack(module, line, lineVersion, taint, flavour(line, taint, unknowns), nvml, cuda, packages, nccl, unknowns);
    }

    static String lineVersion(String line) {
        Matcher m = LINE_VERSION.matcher(line);
        return m.find() ? m.group(1) : null;
    }

    /**
     * Open or proprietary, from the version line first and the module's taint second.
     *
     * <p>Verified: the open 580.159.04 module's line says "NVIDIA UNIX Open Kernel Module for
     * x86_64" and its taint is "O" (shared/fixtures/h100/nvml-probe.txt, and the H200's recording).
     * Not verified (shared/design/health.md, "Unverified"): the proprietary module's line, which
     * users' public transcripts show as "NVIDIA UNIX x86_64 Kernel Module  515.76  ..." (no "Open"),
     * never seen here; and whether it taints with "P". "P" is the kernel's proprietary-module flag
     * (Documentation/ABI/testing/sysfs-module), set for a module whose licence is not GPL-compatible,
     * which the proprietary module's is not, so a "P" is taken as proprietary; "O" (out-of-tree) says
     * nothing of the flavour, since both are built outside the kernel. A line that says Open beside
     * a "P" contradicts itself: UNKNOWN, with an unknown.
     */
    static ModuleFlavour flavour(String line, String taint, List<String> unknowns) {
        boolean proprietaryTaint = taint != null && taint.indexOf('P') >= 0;
        if (line != null && line.contains("Open Kernel Module")) {
            if (!proprietaryTaint) return ModuleFlavour.OPEN;
            unknowns.add(PROC_VERSION + " names the open module but " + MODULE + "/taint is \"" + FactReads.shown(taint)
                    + "\" (P: proprietary): flavour unknown");
            return ModuleFlavour.UNKNOWN;
        }
        if (line != null && line.contains("Kernel Module")) return ModuleFlavour.PROPRIETARY;
        return proprietaryTaint ? ModuleFlavour.PROPRIETARY : ModuleFlavour.UNKNOWN;
    }

    /** The library folders that exist, each once, by the path links resolve it to. */
    private static List<String> libraryDirs(FsRoot fs) {
        Set<String> dirs = new LinkedHashSet<>();
        for (String d : LIBRARY_DIRS) fs.realPath(d).filter(fs::isDirectory).ifPresent(dirs::add);
        return List.copyOf(dirs);
    }

    /** The file a soname resolves to in one folder, and the version its name gives. */
    private static Optional<LibraryFile> soname(FsRoot fs, String dir, String soname, Pattern file, List<String> unknowns) {
        Optional<String> real = fs.realPath(dir + "/" + soname);
        if (real.isEmpty()) return Optional.empty();
        String name = real.get().substring(real.get().lastIndexOf('/') + 1);
        Matcher m = file.matcher(name);
        if (!m.matches()) unknowns.add(dir + "/" + soname + ": resolves to \"" + FactReads.shown(name) + "\", a name without a version");
        return Optional.of(new LibraryFile(real.get(), m.matches() ? m.group(1) : null));
    }

    private static void addOnce(List<LibraryFile> found, LibraryFile f) {
        if (found.stream().noneMatch(x -> x.path().equals(f.path()))) found.add(f);
    }

    /** NCCL's pip wheels: python3.X/{site,dist}-packages/nvidia_nccl_cuNN-V.dist-info, their METADATA's Version. */
    private static List<NcclInstall> wheels(FsRoot fs, FactReads reads, List<String> unknowns) {
        List<NcclInstall> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String root : PYTHON_ROOTS) {
            Optional<String> real = fs.realPath(root);
            if (real.isEmpty() || !seen.add(real.get())) continue;
            for (String python : fs.list(real.get())) {
                if (!PYTHON_DIR.matcher(python).matches()) continue;
                for (String packages : List.of("site-packages", "dist-packages")) {
                    String dir = real.get() + "/" + python + "/" + packages;
                    for (String info : fs.list(dir)) {
                        if (!NCCL_WHEEL.matcher(info).matches()) continue;
                        String metadata = dir + "/" + info + "/METADATA";
                        String version = reads.text(metadata, true).flatMap(SoftwareReader::metadataVersion).orElse(null);
                        if (version == null && fs.exists(metadata)) unknowns.add(metadata + ": no Version: line");
                        out.add(new NcclInstall(NcclSource.WHEEL, dir + "/" + info, version));
                    }
                }
            }
        }
        return out;
    }

    /** The "Version:" header of a wheel's METADATA (core metadata, email-header style, before the first blank line). */
    static Optional<String> metadataVersion(String text) {
        for (String line : text.split("\n")) {
            if (line.isBlank()) break;
            if (line.startsWith("Version:")) {
                String v = line.substring("Version:".length()).strip();
                return v.isEmpty() ? Optional.empty() : Optional.of(Printable.of(v));
            }
        }
        return Optional.empty();
    }

    /**
     * NVIDIA's packages of a dpkg status file: stanzas of "Field: value" lines separated by blank
     * lines, continuation lines starting with a space (deb-control(5)); Package, Version,
     * Architecture and Status are read, the rest skipped. A stanza without Package is garbage.
     */
    static List<DpkgPackage> packages(String text, List<String> unknowns) {
        List<DpkgPackage> out = new ArrayList<>();
        String name = null, version = null, arch = null, status = null;
        boolean any = false;
        for (String line : (text + "\n\n").split("\n", -1)) { // -1: keep the closing blank line
            if (line.isBlank()) {
                if (any && name == null) unknowns.add(DPKG_STATUS + ": a stanza without Package:");
                if (name != null && wanted(name)) out.add(new DpkgPackage(Printable.of(name), version == null ? null : Printable.of(version),
                        arch == null ? null : Printable.of(arch), DpkgState.ofStatus(status)));
                name = version = arch = status = null;
                any = false;
                continue;
            }
            any = true;
            if (line.startsWith(" ") || line.startsWith("\t")) continue;
            int colon = line.indexOf(':');
            if (colon <= 0) continue;
            String value = line.substring(colon + 1).strip();
            switch (line.substring(0, colon)) {
                case "Package" -> name = value;
                case "Version" -> version = value;
                case "Architecture" -> arch = value;
                case "Status" -> status = value;
                default -> { }
            }
        }
        return out;
    }

    static boolean wanted(String name) {
        return name.equals(NCCL_PACKAGE) || PACKAGE_PREFIXES.stream().anyMatch(name::startsWith);
    }
}
