package hostside.bundle;

import java.util.List;

/**
 * A bundle written: where, its size and SHA-256 (platform teams check their copies against it),
 * its absolute path, the Java runtime inside (its version and modules), hostside's version, and whether it carries
 * a start-up cache. Its JSON is what {@code bundle --json} prints.
 */
public record Bundle(String path, long bytes, String sha256, String jdk, List<String> modules, String hostside, boolean startupCache) {}
