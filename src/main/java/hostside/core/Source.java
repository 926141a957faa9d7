package hostside.core;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where a rule's threshold or claim comes from, so that a reader can check it.
 *
 * @param kind how primary it is
 * @param cite what to read, precise enough to find: a document and its section, a file of a
 *             project at a version, an issue thread, a file of docs/measurements
 */
public record Source(Kind kind, String cite) {
    /** From most to least primary. */
    public enum Kind {
        /** A vendor's or standard's document: a datasheet, a manual, a kernel document. */
        DOCUMENT,
        /** A peer's or library's source at a version: what the code does, not what a page says. */
        SOURCE,
        /** A bug or discussion thread where the behaviour was shown. */
        THREAD,
        /** hostside's own measurement, written up in docs/measurements. */
        MEASUREMENT,
        /** hostside's own threshold, reasoned in the rule's text: no outside source says it. */
        REASONED;

        @JsonValue
        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Kind parse(String s) {
            for (Kind k : values()) if (k.toString().equals(s)) return k;
            throw new IllegalArgumentException("\"" + s + "\" is not a kind of source");
        }

        /** Whether a source of this kind is primary: a document, a source file or a measurement, not a thread or a reason. */
        public boolean primary() {
            return this == DOCUMENT || this == SOURCE || this == MEASUREMENT;
        }
    }

    public Source {
        if (kind == null || cite == null || cite.isBlank()) throw new IllegalArgumentException("a source needs a kind and a citation");
    }

    public static Source document(String cite) {
        return new Source(Kind.DOCUMENT, cite);
    }

    public static Source source(String cite) {
        return new Source(Kind.SOURCE, cite);
    }

    public static Source thread(String cite) {
        return new Source(Kind.THREAD, cite);
    }

    public static Source measurement(String cite) {
        return new Source(Kind.MEASUREMENT, cite);
    }

    public static Source reasoned(String cite) {
        return new Source(Kind.REASONED, cite);
    }

    /** "document: ..." as a line shows it. */
    @Override
    public String toString() {
        return kind + ": " + cite;
    }
}
