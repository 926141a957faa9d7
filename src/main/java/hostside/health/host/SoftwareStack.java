package hostside.health.host;

import java.util.List;

/**
 * The NVIDIA software on the machine as files tell it: the kernel module, the user-space
 * libraries, the packages and NCCL. {@link VersionAgreement} says whether the versions agree.
 *
 * @param moduleVersion   /sys/module/nvidia/version ("580.159.04"); null when the module is not loaded
 *                        (or the recording holds no /sys/module)
 * @param versionLine     the first line of /proc/driver/nvidia/version, control characters made visible;
 *                        null without the driver
 * @param lineVersion     the version in that line; null when the line has none in the expected place
 * @param taint           /sys/module/nvidia/taint ("O", "POE"); null when absent
 * @param flavour         open or proprietary module, and how that was told: see {@link SoftwareReader#flavour}
 * @param nvml            every libnvidia-ml.so.1 of the usual library folders, by the file it resolves to
 * @param cuda            every libcuda.so.1 likewise
 * @param packages        NVIDIA's packages of the dpkg database, whatever their state; null when
 *                        /var/lib/dpkg/status could not be read (not a Debian system, or a recording without it)
 * @param nccl            every copy of NCCL found: library files, then pip wheels
 * @param unknowns        reads that failed or held something unexpected, with their paths
 */
public record SoftwareStack(String moduleVersion, String versionLine, String lineVersion, String taint, ModuleFlavour flavour,
                            List<LibraryFile> nvml, List<LibraryFile> cuda, List<DpkgPackage> packages, List<NcclInstall> nccl,
                            List<String> unknowns) {

    /** The kernel module's version: /sys/module's, else the version line's; null when neither says. */
    public String driverVersion() {
        return moduleVersion != null ? moduleVersion : lineVersion;
    }
}
