package hostside.harness;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Figure;
import hostside.core.Finding;
import hostside.doc.Document;

/**
 * What a drill returns: one typed record that is its JSON, and the three things every reader of a
 * drill asks of it.
 */
public interface DrillRun {
    /** The run as its document for --json: schema, kind, the record's fields and the flat figures list; it reads back into an equal run. */
    ObjectNode json();

    /** Every measured figure, typed (docs/contract.md, typed figures). */
    List<Figure> figures();

    /** Every finding it concluded, facts' first, then measured ones: what page one, compare and the course's self-check read. */
    List<Finding> conclusions();

    /** What it shows, said once; the terminal, Markdown and HTML draw this. */
    Document document();

    /** The facts' findings, then the measured ones; a list a run read from an older document lacks counts as none. */
    static List<Finding> both(List<Finding> facts, List<Finding> measured) {
        List<Finding> all = new ArrayList<>();
        if (facts != null) all.addAll(facts);
        if (measured != null) all.addAll(measured);
        return all;
    }
}
