package hostside.core;

/** The schema name every JSON document of hostside carries (CONTRACT.md). */
public final class Schema {
    private Schema() {}

    public static final String CURRENT = "hostside/1";
}
