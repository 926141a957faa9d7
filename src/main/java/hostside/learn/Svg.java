package hostside.learn;

import java.util.List;
import java.util.Locale;

import hostside.doc.HtmlRenderer;

/**
 * A small SVG writer for the steppers' drawings: boxes, arrows, lines and text on a fixed canvas,
 * each with a class the page's style colours ("on" lit, "dim" not involved, "hot" where the cost
 * is, "ok", "bad"). Plain markup, so a page without JavaScript still shows every step, and a test
 * can read it as XML. Coordinates are in the canvas's own units; the page scales it to its width.
 */
public final class Svg {
    /** The steppers' canvas: wide enough for a label a line, short enough to sit beside its caption. */
    public static final int WIDTH = 640, HEIGHT = 260;

    private final int width, height;
    private final StringBuilder body = new StringBuilder();

    public Svg(int width, int height) {
        this.width = width;
        this.height = height;
    }

    /** A rectangle with a label centred in it (one or two lines: "\n" splits). */
    public Svg box(double x, double y, double w, double h, String label, String cls) {
        body.append(String.format(Locale.ROOT, "<g class=\"box %s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"4\"/>", attr(cls), x, y, w, h));
        String[] lines = label == null ? new String[0] : label.split("\n");
        double first = y + h / 2 - (lines.length - 1) * 7 + 4;
        for (int i = 0; i < lines.length; i++) {
            body.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>", x + w / 2, first + i * 14, esc(lines[i])));
        }
        body.append("</g>");
        return this;
    }

    /** An arrow from (x1, y1) to (x2, y2), its label at the middle, above the line. */
    public Svg arrow(double x1, double y1, double x2, double y2, String label, String cls) {
        // the head drawn as a triangle, not an SVG marker: a page holds many drawings, and a marker's id
        // would repeat in it, and a hidden drawing's marker is not drawn in the visible one
        double len = Math.hypot(x2 - x1, y2 - y1), ux = len == 0 ? 0 : (x2 - x1) / len, uy = len == 0 ? 0 : (y2 - y1) / len;
        double bx = x2 - 9 * ux, by = y2 - 9 * uy;
        body.append(String.format(Locale.ROOT, "<g class=\"arrow %s\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
                        + "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>",
                attr(cls), x1, y1, bx, by, x2, y2, bx - 4 * uy, by + 4 * ux, bx + 4 * uy, by - 4 * ux));
        if (label != null && !label.isEmpty()) {
            body.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>", (x1 + x2) / 2, (y1 + y2) / 2 - 6, esc(label)));
        }
        body.append("</g>");
        return this;
    }

    /** A plain line, no head (an axis, a bar's edge). */
    public Svg line(double x1, double y1, double x2, double y2, String cls) {
        body.append(String.format(Locale.ROOT, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", attr(cls), x1, y1, x2, y2));
        return this;
    }

    /** A filled bar (a timeline segment, a histogram bar) with no text. */
    public Svg bar(double x, double y, double w, double h, String cls) {
        body.append(String.format(Locale.ROOT, "<rect class=\"bar %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", attr(cls), x, y, Math.max(0, w), Math.max(0, h)));
        return this;
    }

    /** A dot (a machine on an axis). */
    public Svg dot(double x, double y, double r, String cls) {
        body.append(String.format(Locale.ROOT, "<circle class=\"dot %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>", attr(cls), x, y, r));
        return this;
    }

    /** Text; {@code anchor} is start, middle or end. */
    public Svg text(double x, double y, String s, String anchor, String cls) {
        body.append(String.format(Locale.ROOT, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>", attr(cls), x, y, attr(anchor), esc(s)));
        return this;
    }

    /** Lines of text from (x, y) down, left-aligned, 14 units apart; returns the y below the last. */
    public double lines(double x, double y, List<String> lines, String cls) {
        for (String l : lines) {
            text(x, y, l, "start", cls);
            y += 14;
        }
        return y;
    }

    /**
     * The element: {@code title} is its accessible name (role img), what a screen reader says for
     * the drawing; the caption beside it carries the explanation.
     */
    public String render(String title) {
        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\">%s</svg>",
                width, height, width, height, attr(title), body);
    }

    static String esc(String s) {
        return HtmlRenderer.esc(s);
    }

    private static String attr(String s) {
        return s == null ? "" : esc(s);
    }
}
