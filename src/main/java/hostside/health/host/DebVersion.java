package hostside.health.host;

/**
 * A Debian package version, [epoch:]upstream_version[-debian_revision] (Debian Policy 5.6.12):
 * the epoch is digits before the first colon, the revision follows the last hyphen.
 */
final class DebVersion {
    private DebVersion() {}

    /** "1:580.95.05-0ubuntu1" and "580.95.05-1" give "580.95.05"; "2.28.3-1+cuda13.0" gives "2.28.3"; null for null. */
    static String upstream(String version) {
        if (version == null) return null;
        String v = version.strip();
        int colon = v.indexOf(':');
        if (colon > 0 && v.substring(0, colon).chars().allMatch(Character::isDigit)) v = v.substring(colon + 1);
        int hyphen = v.lastIndexOf('-');
        return hyphen > 0 ? v.substring(0, hyphen) : v;
    }
}
