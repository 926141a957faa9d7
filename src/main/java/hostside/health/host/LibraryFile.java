package hostside.health.host;

/**
 * A shared library found in one of the usual folders, and the version its file name gives.
 *
 * @param path    where the name resolves to: "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.580.159.04"
 * @param version the version in that name ("580.159.04"); null when the name carries none
 */
public record LibraryFile(String path, String version) {}
