package hostside.cpu.trace;

/**
 * One line of a timed trace ({@code strace -f -tt -T -o FILE}), as strace writes it:
 * <pre>
 * 20411 15:28:02.063033 futex(0x7f919174e6f8, FUTEX_WAKE_PRIVATE, 1) = 0 &lt;0.000029&gt;
 * 20411 15:28:02.061635 futex(0x5599ecd5f9a0, FUTEX_WAIT_BITSET_PRIVATE, 0, NULL &lt;unfinished ...&gt;
 * 20411 15:28:02.062709 &lt;... futex resumed&gt;) = 0 &lt;0.001056&gt;
 * 20411 15:28:02.073507 --- SIGCHLD {si_signo=SIGCHLD, ...} ---
 * 20411 15:28:02.113695 +++ exited with 0 +++
 * </pre>
 * The PID is absent when one process was traced without {@code -f}, and written
 * {@code [pid N]} when strace writes to a terminal; the time may be {@code -t}, {@code -tt} or
 * {@code -ttt}. Nothing here throws: a line that cannot be read is {@link Garbage}.
 */
public sealed interface TraceLine {
    /** The thread that made the call (a TID under {@code -f}); 0 when the line names none. */
    int pid();

    /** Seconds since midnight ({@code -t}/{@code -tt}) or the epoch ({@code -ttt}); NaN when absent. */
    double time();

    /** A call that returned on the same line. {@code duration} is NaN where {@code -T} gave none. */
    record Call(int pid, double time, String name, String args, String ret, String errno, double duration) implements TraceLine {}

    /** The first half of a call another thread's line interrupted: {@code ... <unfinished ...>}. */
    record Unfinished(int pid, double time, String name, String args) implements TraceLine {}

    /** The second half: {@code <... name resumed>rest) = ret <dur>}; {@code args} is the rest. */
    record Resumed(int pid, double time, String name, String args, String ret, String errno, double duration) implements TraceLine {}

    /** A call in progress when strace let go of the thread: {@code ... <detached ...>}. */
    record Detached(int pid, double time, String name, String args) implements TraceLine {}

    /** {@code --- SIGCHLD {...} ---}, or {@code --- stopped by SIGSTOP ---}. */
    record Signal(int pid, double time, String signal) implements TraceLine {}

    /** {@code +++ exited with 0 +++}, {@code +++ killed by SIGKILL +++}: how the thread ended. */
    record Exit(int pid, double time, String how) implements TraceLine {}

    /** strace's own words in the trace ("strace: Process 123 attached"). */
    record Message(int pid, double time, String text) implements TraceLine {}

    /** Anything else, such as the last line of a trace cut mid-write. */
    record Garbage(String text) implements TraceLine {
        @Override
        public int pid() {
            return 0;
        }

        @Override
        public double time() {
            return Double.NaN;
        }
    }

    String UNFINISHED = "<unfinished ...>";
    String DETACHED = "<detached ...>";

    static TraceLine parse(String line) {
        String s = line.stripTrailing();
        int i = 0;
        int pid = 0;
        // "[pid  123] " (strace to a terminal) or "123 " (strace -f -o FILE)
        if (s.startsWith("[pid ")) {
            int close = s.indexOf(']');
            if (close < 0) return new Garbage(line);
            try {
                pid = Integer.parseInt(s.substring(5, close).trim());
            } catch (NumberFormatException e) {
                return new Garbage(line);
            }
            i = skipSpaces(s, close + 1);
        } else {
            int d = 0;
            while (d < s.length() && Character.isDigit(s.charAt(d))) d++;
            if (d > 0 && d <= 10 && d < s.length() && s.charAt(d) == ' ') {
                try {
                    pid = Integer.parseInt(s, 0, d, 10);
                } catch (NumberFormatException e) {
                    return new Garbage(line);
                }
                i = skipSpaces(s, d);
            }
        }
        double time = Double.NaN;
        int t = timeEnd(s, i);
        if (t > i) {
            time = parseTime(s.substring(i, t));
            if (Double.isNaN(time)) return new Garbage(line);
            i = skipSpaces(s, t);
        }
        String body = s.substring(i);
        if (body.isEmpty()) return new Garbage(line);
        if (body.startsWith("--- ")) {
            String rest = body.substring(4);
            if (rest.startsWith("stopped by ")) rest = rest.substring("stopped by ".length());
            int sp = rest.indexOf(' ');
            return new Signal(pid, time, sp < 0 ? rest : rest.substring(0, sp));
        }
        if (body.startsWith("+++ ")) {
            String how = body.endsWith(" +++") && body.length() >= 8 ? body.substring(4, body.length() - 4) : body.substring(4);
            return new Exit(pid, time, how.trim());
        }
        if (body.startsWith("strace: ") || body.startsWith("Process ")) return new Message(pid, time, body);
        if (body.startsWith("<... ")) {
            int r = body.indexOf(" resumed>");
            if (r < 0) return new Garbage(line);
            String name = body.substring(5, r);
            String rest = body.substring(r + " resumed>".length());
            if (rest.endsWith(DETACHED)) return new Detached(pid, time, name, trimArgs(rest.substring(0, rest.length() - DETACHED.length())));
            int close = Args.closingParen(rest, 0, 1);
            if (close < 0) return new Garbage(line);
            Ret ret = Ret.parse(rest.substring(close + 1));
            if (ret == null) return new Garbage(line);
            return new Resumed(pid, time, name, rest.substring(0, close), ret.value, ret.errno, ret.duration);
        }
        int open = body.indexOf('(');
        if (open <= 0 || !isName(body, open)) return new Garbage(line);
        String name = body.substring(0, open);
        if (body.endsWith(UNFINISHED)) {
            return new Unfinished(pid, time, name, trimArgs(body.substring(open + 1, body.length() - UNFINISHED.length())));
        }
        if (body.endsWith(DETACHED)) {
            return new Detached(pid, time, name, trimArgs(body.substring(open + 1, body.length() - DETACHED.length())));
        }
        int close = Args.closingParen(body, open + 1, 1);
        if (close < 0) return new Garbage(line);
        Ret ret = Ret.parse(body.substring(close + 1));
        if (ret == null) return new Garbage(line);
        return new Call(pid, time, name, body.substring(open + 1, close), ret.value, ret.errno, ret.duration);
    }

    private static boolean isName(String s, int end) {
        for (int k = 0; k < end; k++) {
            char c = s.charAt(k);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '?')) return false;
        }
        return true;
    }

    private static String trimArgs(String a) {
        String t = a.stripTrailing();
        return t.endsWith(",") ? t.substring(0, t.length() - 1) : t;
    }

    private static int skipSpaces(String s, int i) {
        while (i < s.length() && s.charAt(i) == ' ') i++;
        return i;
    }

    /** The end of a time stamp at {@code i} (HH:MM:SS[.frac] or epoch.frac), or {@code i} when none. */
    private static int timeEnd(String s, int i) {
        int j = i;
        while (j < s.length() && (Character.isDigit(s.charAt(j)) || s.charAt(j) == ':' || s.charAt(j) == '.')) j++;
        if (j == i || j >= s.length() || s.charAt(j) != ' ') return i;
        String tok = s.substring(i, j);
        if (tok.indexOf(':') > 0 || (tok.indexOf('.') > 0 && tok.length() >= 12)) return j;
        return i;
    }

    /** "15:28:02.063033" as seconds since midnight, "1701530882.123456" as epoch seconds. */
    static double parseTime(String tok) {
        try {
            if (tok.indexOf(':') < 0) return Double.parseDouble(tok);
            String[] hms = tok.split(":");
            if (hms.length != 3) return Double.NaN;
            return Integer.parseInt(hms[0]) * 3600.0 + Integer.parseInt(hms[1]) * 60.0 + Double.parseDouble(hms[2]);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** What follows the call's closing parenthesis: {@code = RET [ERRNO (text)] [<secs>]}. */
    record Ret(String value, String errno, double duration) {
        static Ret parse(String after) {
            String a = after.strip();
            if (!a.startsWith("=")) return null;
            a = a.substring(1).strip();
            double duration = Double.NaN;
            if (a.endsWith(">")) {
                int lt = a.lastIndexOf('<');
                if (lt >= 0) {
                    String d = a.substring(lt + 1, a.length() - 1);
                    if (d.equals("unavailable")) {
                        a = a.substring(0, lt).strip();
                    } else if (!d.isEmpty() && (Character.isDigit(d.charAt(0)))) {
                        try {
                            duration = Double.parseDouble(d);
                            a = a.substring(0, lt).strip();
                        } catch (NumberFormatException e) {
                            // a "<...>" that is part of the value (strace -y: "= 3</dev/null>")
                        }
                    }
                }
            }
            if (a.isEmpty()) return null;
            int sp = a.indexOf(' ');
            String value = sp < 0 ? a : a.substring(0, sp);
            String errno = "";
            if ((value.equals("-1") || value.equals("?")) && sp > 0) {
                String rest = a.substring(sp + 1);
                int e = rest.indexOf(' ');
                String word = e < 0 ? rest : rest.substring(0, e);
                if (word.length() > 1 && word.charAt(0) == 'E' && word.chars().allMatch(c -> Character.isUpperCase(c) || Character.isDigit(c))) {
                    errno = word;
                }
            }
            return new Ret(value, errno, duration);
        }
    }
}
