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

    /**
     * The content with surrounding white space removed, and the NUL bytes that some kernels and
     * capture tools pad sysfs values with ("0-63\n\0\0\0"), if it was read. NULs before or inside
     * the text (the separators of environ and cmdline files) stay.
     */
    default Optional<String> trimmed() {
        if (!(this instanceof Ok o)) return Optional.empty();
        String t = o.text().strip();
        int to = t.length();
        while (to > 0 && (t.charAt(to - 1) == '\0' || Character.isWhitespace(t.charAt(to - 1)))) to--;
        return Optional.of(t.substring(0, to));
    }

    /** Why there is no value, for an "unknown (why)" field. */
    default String why() {
        return this instanceof Failed f ? f.path() + ": " + f.reason() : "";
    }
}
