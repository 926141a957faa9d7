package hostside.core;

/** Colour for findings on a terminal; plain text when piped or when NO_COLOR is set. */
public final class Style {
    private final boolean color;

    private Style(boolean color) {
        this.color = color;
    }

    public static Style forTerminal() {
        return new Style(System.console() != null && System.console().isTerminal() && System.getenv("NO_COLOR") == null
                && !"dumb".equals(System.getenv("TERM")));
    }

    /** Colour whatever the output is (a test of the colours, or a pager that shows them). */
    public static Style colour() {
        return new Style(true);
    }

    public static Style plain() {
        return new Style(false);
    }

    public String bad(String s) {
        return color ? "\u001b[31m" + s + "\u001b[0m" : s;
    }

    public String warn(String s) {
        return color ? "\u001b[33m" + s + "\u001b[0m" : s;
    }

    public String bold(String s) {
        return color ? "\u001b[1m" + s + "\u001b[0m" : s;
    }

    public String dim(String s) {
        return color ? "\u001b[2m" + s + "\u001b[0m" : s;
    }
}
