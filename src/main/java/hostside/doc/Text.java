package hostside.doc;

import java.util.ArrayList;
import java.util.List;

import hostside.core.Printable;

/**
 * A run of inline text: plain words, code (a path, a flag, a command) and strong words. The
 * renderers escape plain text for their format; nothing in a {@code Text} is markup. Nor is
 * anything in it a control: each piece is made {@link Printable} as it is built, so a name from
 * another machine reaches no terminal, Markdown or HTML file as an escape sequence, whichever
 * renderer draws it.
 */
public record Text(List<Inline> parts) {
    public Text {
        parts = List.copyOf(parts);
    }

    /** One piece of inline text. */
    public sealed interface Inline {
        String text();
    }

    public record Plain(String text) implements Inline {
        public Plain {
            text = Printable.of(text);
        }
    }

    /** A command, a path, a kernel option: monospace in Markdown and HTML, as it is in text. */
    public record Code(String text) implements Inline {
        public Code {
            text = Printable.of(text);
        }
    }

    /** What the eye should land on first: a verdict word, a headline figure. */
    public record Strong(String text) implements Inline {
        public Strong {
            text = Printable.of(text);
        }
    }

    public static Text of(String plain) {
        return new Text(plain.isEmpty() ? List.of() : List.of(new Plain(plain)));
    }

    public static Text code(String code) {
        return new Text(List.of(new Code(code)));
    }

    public static Text strong(String s) {
        return new Text(List.of(new Strong(s)));
    }

    public Text plain(String s) {
        return s.isEmpty() ? this : with(new Plain(s));
    }

    public Text andCode(String s) {
        return with(new Code(s));
    }

    public Text andStrong(String s) {
        return with(new Strong(s));
    }

    private Text with(Inline i) {
        List<Inline> p = new ArrayList<>(parts);
        p.add(i);
        return new Text(p);
    }

    /** The words without formatting: what a test compares across renderers. */
    public String plainText() {
        StringBuilder s = new StringBuilder();
        for (Inline i : parts) s.append(i.text());
        return s.toString();
    }

    public boolean isEmpty() {
        return parts.stream().allMatch(i -> i.text().isEmpty());
    }
}
