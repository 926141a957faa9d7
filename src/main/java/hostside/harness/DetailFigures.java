package hostside.harness;

import java.util.List;

import hostside.core.Better;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Unit;

/**
 * A detail that holds headline figures of its own beside its result's: the other direction of a
 * bidirectional copy, the size where a sweep reaches half its peak, each GPU's share of an
 * all-at-once copy, one figure per ordered pair of GPUs. A fleet compares them as it compares the
 * result's own, so the run lists them flat beside it (docs/contract.md, Typed figures) rather than
 * leaving them to be dug out of the detail by name.
 */
public interface DetailFigures extends Detail {
    /** The figures inside; {@code r} is the result holding this detail, {@code scope} what that result is about. */
    List<Figure> figures(Result r, Scope scope);

    /** {@code r}'s own figure and those of its detail, all of them only when it ran. */
    static List<Figure> of(Result r, Scope scope) {
        List<Figure> all = new java.util.ArrayList<>(r.figure(scope).stream().toList());
        if (r.isOk() && r.detail() instanceof DetailFigures d) all.addAll(d.figures(r, scope));
        return all;
    }

    /** A figure derived from others (a size read off a sweep): one value, no spread of its own. */
    static Figure exact(Result r, String key, Scope scope, double value, Unit unit, Better better, String method,
                        String anchor) {
        return new Figure(key, scope, value, unit, better, value, value, r.value().samples(), method, anchor);
    }
}
