package hostside.health.host;

/**
 * One of NVIDIA's packages in the dpkg database.
 *
 * @param name         Package: "libnccl2"
 * @param version      Version: "2.28.3-1+cuda13.0", [epoch:]upstream[-revision] (Debian Policy 5.6.12)
 * @param architecture Architecture: "amd64"; null when absent
 * @param state        the Status field's state; only INSTALLED means its files are there
 */
public record DpkgPackage(String name, String version, String architecture, DpkgState state) {

    /** The version without epoch and Debian revision: "580.159.04-1" is 580.159.04; null without a version. */
    public String upstreamVersion() {
        return DebVersion.upstream(version);
    }
}
