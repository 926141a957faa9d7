package hostside.doc;

import java.util.List;

import hostside.core.Printable;

/**
 * What a drill shows, said once: a title and a tree of blocks. The text, Markdown and HTML
 * renderers each draw any document, so the three views of a drill cannot drift apart (as
 * hwloc's one topology tree is drawn by lstopo's several back ends).
 *
 * <p>Every string of a document, here and in its {@link Block}s and {@link Text}, is made
 * {@link Printable} as the document is built: the renderers own every line break, tab and colour
 * they write, and draw no control that came with a value.
 *
 * @param title    what the document is about, e.g. "hostside machine: vm"
 * @param subtitle one line under the title (the recording it was read from, the date); "" for none
 * @param blocks   the content, in order; {@link Block.Section}s nest
 */
public record Document(String title, String subtitle, List<Block> blocks) {
    public Document {
        title = Printable.of(title);
        subtitle = Printable.of(subtitle);
        blocks = List.copyOf(blocks);
    }

    public Document(String title, List<Block> blocks) {
        this(title, "", blocks);
    }
}
