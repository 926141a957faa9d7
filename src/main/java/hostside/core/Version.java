package hostside.core;

/** hostside's version, from the jar's manifest ("dev" when run from classes). */
public final class Version {
    private Version() {}

    public static String of() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
