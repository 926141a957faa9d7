package hostside.health.host;

/**
 * One copy of NCCL on the machine.
 *
 * @param source  a library file or a pip wheel
 * @param path    the library file, or the wheel's *.dist-info folder
 * @param version "2.28.3"; null when its METADATA gave none
 */
public record NcclInstall(NcclSource source, String path, String version) {}
