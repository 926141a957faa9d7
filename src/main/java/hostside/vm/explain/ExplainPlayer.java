package hostside.vm.explain;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;

/** Plays steps in a terminal: one at a time, Enter for the next, q to stop. */
public final class ExplainPlayer {
    public static final String PROMPT = "[Enter: next step, q: quit] ";

    private ExplainPlayer() {}

    /**
     * Prints the first step, then waits for Enter before each next one. With all, or once the input has ended (a pipe,
     * a closed stdin), the rest print without waiting: nobody is there to press Enter.
     *
     * @return how many steps were printed
     */
    public static int play(List<Step> steps, BufferedReader in, PrintWriter out, boolean all) {
        boolean waiting = !all;
        int shown = 0;
        for (Step step : steps) {
            if (shown > 0) {
                if (waiting) {
                    out.print(PROMPT);
                    out.flush();
                    String answer = readLine(in);
                    if (answer == null) {
                        out.println();
                        waiting = false;
                    } else if (answer.trim().equalsIgnoreCase("q")) {
                        out.println("(stopped after step " + shown + " of " + steps.size() + ")");
                        out.flush();
                        return shown;
                    }
                }
                out.println();
            }
            step.lines(steps.size()).forEach(out::println);
            out.flush();
            shown++;
        }
        return shown;
    }

    private static String readLine(BufferedReader in) {
        try {
            return in.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the terminal: " + e.getMessage(), e);
        }
    }
}
