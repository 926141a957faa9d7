package hostside.report;

import java.util.Map;
import java.util.Set;

/**
 * The fields a report's readers need, by record ({@link ReportChecks#REQUIRED}), for the schema
 * generator in another package: docs/schema requires what ReportChecks requires, no more.
 */
public final class ReadersNeed {
    private ReadersNeed() {}

    public static Map<Class<? extends Record>, Set<String>> fields() {
        return ReportChecks.REQUIRED;
    }

    /** The schemas a report may carry and be read ({@link ReportReader#SCHEMAS}). */
    public static java.util.List<String> schemas() {
        return ReportReader.SCHEMAS;
    }
}
