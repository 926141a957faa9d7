package hostside.learn;

import java.util.ArrayList;
import java.util.List;

/** Frames in the making, numbered as they are added. */
public final class Frames {
    private final List<Frame> list = new ArrayList<>();

    public Frames add(String title, String caption, Frame.Predict predict, String svg, Inputs.Value... figures) {
        list.add(new Frame(list.size() + 1, title, caption, predict, svg, List.of(figures)));
        return this;
    }

    public List<Frame> list() {
        if (list.isEmpty()) throw new IllegalStateException("a stepper with no frames");
        return List.copyOf(list);
    }
}
