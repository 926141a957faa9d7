package hostside.core;

/** Words shown as a user would type them into a POSIX shell: a hint to copy must run as shown, spaces and quotes included. */
public final class Shell {
    private Shell() {}

    /** {@code s} unchanged where a shell reads it as one word as it is, else in single quotes ({@code '} written {@code '\''}). */
    public static String quote(String s) {
        if (!s.isEmpty() && s.chars().allMatch(Shell::plain)) return s;
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static boolean plain(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "_./@%+=:,-".indexOf(c) >= 0;
    }
}
