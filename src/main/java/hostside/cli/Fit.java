package hostside.cli;

/**
 * A line fitted to a terminal's columns: a lead and figures kept whole, the description between
 * them shortened at a word with an ellipsis. One column per character: the line is what
 * Printable left, and the words are the drills' own (ASCII).
 */
final class Fit {
    static final String ELLIPSIS = "...";
    /** The fewest characters of a description worth showing before an ellipsis; fewer, it goes whole. */
    static final int LEAST = 4;

    private Fit() {}

    /**
     * {@code lead + description + figures} in at most {@code columns} characters: the description
     * cut at its last word boundary (a space, or the underscore, hyphen, dot or slash of a key or a
     * path) that leaves room for the ellipsis and the figures. Where even the lead and figures do not
     * fit, the description goes, then the lead; a figure is cut only when it alone is wider.
     */
    static String line(String lead, String description, String figures, int columns) {
        String whole = lead + description + figures;
        if (whole.length() <= columns) return whole;
        int room = columns - lead.length() - figures.length() - ELLIPSIS.length();
        if (room >= LEAST) return lead + shorten(description, room) + ELLIPSIS + figures;
        String alone = (figures.startsWith(",") ? figures.substring(1) : figures).strip();
        String bare = lead.strip() + " " + alone;
        if (bare.length() <= columns) return bare;
        return alone.length() <= columns ? alone : alone.substring(0, columns);
    }

    /** At most {@code room} characters of {@code s}, ending before a word boundary where there is one. */
    static String shorten(String s, int room) {
        int cut = -1;
        for (int i = Math.min(room, s.length() - 1); i > 0; i--) {
            if (" _-./".indexOf(s.charAt(i)) >= 0) {
                cut = i;
                break;
            }
        }
        String kept = cut > 0 ? s.substring(0, cut) : s.substring(0, Math.min(room, s.length()));
        return kept.stripTrailing();
    }
}
