package hostside.core;

/**
 * The schema name every JSON document of hostside carries (docs/contract.md; the layout: docs/schema): hostside/2 from the typed
 * figures on; the report still reads hostside/1.
 */
public final class Schema {
    private Schema() {}

    public static final String CURRENT = "hostside/2";
}
