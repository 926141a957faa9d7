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
     * The content with surrounding white space and NUL bytes removed, if it was read. Some kernels
     * and capture tools pad sysfs values with NULs ("0-63\n\0\0\0"); NULs inside the text (the
     * separators of environ and cmdline files) stay.
     */
    default Optional<String> trimmed() {
        if (!(this instanceof Ok o)) return Optional.empty();
        String t = o.text();
        int from = 0, to = t.length();
        while (from < to && padding(t.charAt(from))) from++;
        while (to > from && padding(t.charAt(to - 1))) to--;
        return Optional.of(t.substring(from, to));
    }

    private static boolean padding(char c) {
        return c == '\0' || Character.isWhitespace(c);
    }

    /** Why there is no value, for an "unknown (why)" field. */
    default String why() {
        return this instanceof Failed f ? f.path() + ": " + f.reason() : "";
    }
}
