package hostside.health.host;

/**
 * One version found, and where.
 *
 * @param where   the file or package it came from: "/sys/module/nvidia/version", "nvidia-fabricmanager",
 *                "/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3"
 * @param version as compared (a package's upstream version); null when that source gave none
 */
public record VersionSource(String where, String version) {}
