package hostside.vm.explain;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/** Plays steps in a terminal: one at a time, Enter or space for the next, q to stop. */
public final class ExplainPlayer {
    public static final String PROMPT = "[Enter or space: next step, q: quit] ";

    private ExplainPlayer() {}

    /** What an answer to the prompt asks for. */
    public enum Key {
        /** Show the next step. */
        NEXT,
        /** Stop now. */
        QUIT,
        /** A key that means nothing here (an arrow's escape sequence, a letter): keep waiting. */
        IGNORED,
        /** The input has ended: nobody is there to answer, so the rest prints without waiting. */
        END
    }

    /** Where the answers come from: lines of a pipe, or single keys of a terminal in raw mode. */
    public interface Answers {
        Key next();

        /** True when the terminal shows the answer and its newline (line mode); raw mode echoes nothing. */
        boolean echoed();
    }

    /**
     * One key of a terminal in raw mode (a byte; -1 at the end of input). Enter arrives as CR or LF depending on the
     * terminal's icrnl; Ctrl-D is the end of input as it is in line mode. Ctrl-C is not seen here: the terminal keeps
     * ISIG, so it stops the JVM, whose shutdown hook gives the terminal back.
     */
    public static Key decide(int key) {
        return switch (key) {
            case -1, 4 -> Key.END;
            case '\n', '\r', ' ' -> Key.NEXT;
            case 'q', 'Q' -> Key.QUIT;
            default -> Key.IGNORED;
        };
    }

    /** One line of piped or line-buffered input: q (any case, any spaces around it) quits, anything else advances. */
    public static Key decideLine(String line) {
        if (line == null) return Key.END;
        return line.trim().equalsIgnoreCase("q") ? Key.QUIT : Key.NEXT;
    }

    /** Answers read a line at a time: what a pipe gives, and what tests drive. */
    public static Answers lines(BufferedReader in) {
        return new Answers() {
            @Override
            public Key next() {
                try {
                    return decideLine(in.readLine());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the terminal: " + e.getMessage(), e);
                }
            }

            @Override
            public boolean echoed() {
                return true;
            }
        };
    }

    /** Answers read a key at a time, skipping keys that mean nothing, from a terminal in raw mode. */
    public static Answers keys(InputStream in) {
        return new Answers() {
            @Override
            public Key next() {
                try {
                    Key k;
                    do k = decide(in.read()); while (k == Key.IGNORED);
                    return k;
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the terminal: " + e.getMessage(), e);
                }
            }

            @Override
            public boolean echoed() {
                return false;
            }
        };
    }

    /**
     * How `hostside vm --explain` plays: every step at once with all or without a terminal (no one is there to
     * press a key); on a terminal one key per step, in raw mode so that q needs no Enter. Where the terminal cannot
     * be put into raw mode (no stty), Enter after each answer, as before.
     */
    public static int play(List<Step> steps, PrintWriter out, boolean all) {
        BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        java.io.Console console = System.console();
        if (all || console == null || !console.isTerminal()) return play(steps, lines(lines), out, true);
        Optional<RawTerminal> raw = steps.size() > 1 ? RawTerminal.enter() : Optional.empty();
        if (raw.isEmpty()) return play(steps, lines(lines), out, false);
        try (RawTerminal t = raw.get()) {
            return play(steps, keys(System.in), out, false);
        }
    }

    /** Line mode on a reader: what the tests of piped input drive. */
    public static int play(List<Step> steps, BufferedReader in, PrintWriter out, boolean all) {
        return play(steps, lines(in), out, all);
    }

    /**
     * Prints the first step, then waits for an answer before each next one. With all, or once the input has ended
     * (a pipe, a closed stdin), the rest print without waiting: nobody is there to answer.
     *
     * @return how many steps were printed
     */
    public static int play(List<Step> steps, Answers answers, PrintWriter out, boolean all) {
        boolean waiting = !all;
        int shown = 0;
        for (Step step : steps) {
            if (shown > 0) {
                if (waiting) {
                    out.print(PROMPT);
                    out.flush();
                    Key answer = answers.next();
                    // the line mode's echo ends the prompt's line; with no echo (raw keys, end of input) we end it
                    if (answer == Key.END || !answers.echoed()) out.println();
                    if (answer == Key.END) {
                        waiting = false;
                    } else if (answer == Key.QUIT) {
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
}
