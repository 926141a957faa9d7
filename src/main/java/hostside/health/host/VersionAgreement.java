package hostside.health.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Compares the versions of a {@link SoftwareStack} that must agree; see {@link VersionCheck.Check} for why each must. */
public final class VersionAgreement {
    private VersionAgreement() {}

    public static List<VersionCheck> check(SoftwareStack s) {
        String driver = s.driverVersion();
        VersionSource module = new VersionSource(s.moduleVersion() != null ? SoftwareReader.MODULE + "/version" : SoftwareReader.PROC_VERSION, driver);
        List<VersionCheck> out = new ArrayList<>();
        out.add(againstModule(VersionCheck.Check.NVML_LIBRARY, module, s.nvml().stream().map(f -> new VersionSource(f.path(), f.version())).toList()));
        out.add(againstModule(VersionCheck.Check.CUDA_LIBRARY, module, s.cuda().stream().map(f -> new VersionSource(f.path(), f.version())).toList()));
        out.add(fabricManager(s, module));
        out.add(nccl(s));
        return out;
    }

    /** Each found version against the module's: NOT_APPLICABLE when none was found, UNKNOWN when any side lacks a version. */
    static VersionCheck againstModule(VersionCheck.Check check, VersionSource module, List<VersionSource> found) {
        List<VersionSource> all = new ArrayList<>();
        all.add(module);
        all.addAll(found);
        if (found.isEmpty()) return new VersionCheck(check, Agreement.NOT_APPLICABLE, module.version(), all);
        if (found.stream().anyMatch(f -> f.version() != null && module.version() != null && !f.version().equals(module.version()))) {
            return new VersionCheck(check, Agreement.DIFFER, module.version(), all);
        }
        boolean known = module.version() != null && found.stream().allMatch(f -> f.version() != null);
        return new VersionCheck(check, known ? Agreement.AGREE : Agreement.UNKNOWN, module.version(), all);
    }

    /**
     * The installed fabric manager packages (nvidia-fabricmanager, nvidia-fabricmanager-NNN,
     * nvidia-fabric-manager, their -dev packages) by upstream version. Ubuntu's transitional
     * packages carry the new branch's version under the old name ("nvidia-fabricmanager-dev-570"
     * at 580.126.20-0ubuntu3, packages.ubuntu.com), so the version is compared, never the name's branch.
     * UNKNOWN without a package database.
     */
    static VersionCheck fabricManager(SoftwareStack s, VersionSource module) {
        if (s.packages() == null) return new VersionCheck(VersionCheck.Check.FABRIC_MANAGER, Agreement.UNKNOWN, module.version(), List.of(module));
        List<VersionSource> fm = s.packages().stream()
                .filter(p -> p.state() == DpkgState.INSTALLED)
                .filter(p -> p.name().startsWith("nvidia-fabricmanager") || p.name().startsWith("nvidia-fabric-manager"))
                .map(p -> new VersionSource(p.name(), p.upstreamVersion())).toList();
        return againstModule(VersionCheck.Check.FABRIC_MANAGER, module, fm);
    }

    /** All copies of NCCL equal to one another: the files, the wheels and the installed libnccl2 package. */
    static VersionCheck nccl(SoftwareStack s) {
        List<VersionSource> found = new ArrayList<>();
        for (NcclInstall n : s.nccl()) found.add(new VersionSource(n.path(), n.version()));
        if (s.packages() != null) {
            s.packages().stream().filter(p -> p.name().equals(SoftwareReader.NCCL_PACKAGE) && p.state() == DpkgState.INSTALLED)
                    .forEach(p -> found.add(new VersionSource(p.name(), p.upstreamVersion())));
        }
        if (found.isEmpty()) return new VersionCheck(VersionCheck.Check.NCCL, Agreement.NOT_APPLICABLE, null, found);
        long distinct = found.stream().map(VersionSource::version).filter(Objects::nonNull).distinct().count();
        Agreement a = distinct > 1 ? Agreement.DIFFER : found.stream().anyMatch(f -> f.version() == null) ? Agreement.UNKNOWN : Agreement.AGREE;
        return new VersionCheck(VersionCheck.Check.NCCL, a, null, found);
    }
}
