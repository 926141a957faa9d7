package hostside.fs;

import java.util.Optional;

/** The outcome of reading one file under the root: its text, or why there is none. */
public sealed interface Read {
    record Ok(String path, String text) implements Read {}
    record Failed(String path, String reason) implements Read {}

    String path();

    default boolean ok() {
        return this instanceof Ok;
    }

    /** The content with surrounding white space removed, if it was read. */
    default Optional<String> trimmed() {
        return this instanceof Ok o ? Optional.of(o.text().strip()) : Optional.empty();
    }

    /** Why there is no value, for an "unknown (why)" field. */
    default String why() {
        return this instanceof Failed f ? f.path() + ": " + f.reason() : "";
    }
}
