package hostside.learn;

import java.util.List;

/**
 * One step of a stepper: what the reader sees at that point.
 *
 * @param number  1-based position
 * @param title   one line
 * @param caption 1-4 plain sentences, read aloud by screen readers as the step changes; says which
 *                figures are this machine's and which are typical values
 * @param predict the question asked before this step is revealed; null when the step asks none
 * @param svg     the drawing of this step, one {@code <svg>} element made by {@link Svg}
 * @param figures the figures this step quotes, each with where it came from
 */
public record Frame(int number, String title, String caption, Predict predict, String svg, List<Inputs.Value> figures) {
    public Frame {
        if (number < 1) throw new IllegalArgumentException("frames are numbered from 1, got " + number);
        if (title == null || title.isBlank()) throw new IllegalArgumentException("frame " + number + " has no title");
        if (svg == null || !svg.startsWith("<svg")) throw new IllegalArgumentException("frame " + number + " has no drawing");
        figures = figures == null ? List.of() : List.copyOf(figures);
    }

    /**
     * A question put before the reveal: the reader commits to an answer, then sees the step and why.
     *
     * @param question the question, one sentence
     * @param choices  two to five short answers
     * @param answer   the index of the right one in {@code choices}
     * @param why      one or two sentences: why that answer, on this machine
     */
    public record Predict(String question, List<String> choices, int answer, String why) {
        public Predict {
            choices = List.copyOf(choices);
            if (choices.size() < 2 || choices.size() > 5) throw new IllegalArgumentException("a prediction has 2 to 5 choices, got " + choices.size());
            if (answer < 0 || answer >= choices.size()) throw new IllegalArgumentException("answer " + answer + " is not one of the " + choices.size() + " choices");
        }
    }
}
