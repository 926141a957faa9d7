package hostside.cpu.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.IntPredicate;

/**
 * The argument text of one strace line, as strace prints it: strings in double quotes with C
 * escapes (a truncated one ends {@code "..."...}), structures in braces, arrays in brackets,
 * macros with parentheses ({@code makedev(0x88, 0)}) and comments ({@code /* 39 vars *}{@code /}).
 */
final class Args {
    private Args() {}

    /**
     * Where the parenthesis that closes the call is, scanning {@code s} from {@code from} at the
     * given depth (1 just inside the call's "("), or -1 when the text ends first (a cut line).
     */
    static int closingParen(String s, int from, int depth) {
        int[] d = {depth};
        return outsideStrings(s, from, i -> switch (s.charAt(i)) {
            case '(' -> {
                d[0]++;
                yield false;
            }
            case ')' -> --d[0] == 0;
            default -> false;
        });
    }

    /** The top-level arguments, split at commas outside strings, braces, brackets and parentheses. */
    static List<String> split(String args) {
        List<String> out = new ArrayList<>();
        int[] depth = {0}, start = {0};
        outsideStrings(args, 0, i -> {
            switch (args.charAt(i)) {
                case '(', '[', '{' -> depth[0]++;
                case ')', ']', '}' -> depth[0] = Math.max(0, depth[0] - 1);
                case ',' -> {
                    if (depth[0] == 0) {
                        out.add(args.substring(start[0], i).trim());
                        start[0] = i + 1;
                    }
                }
                default -> { }
            }
            return false;
        });
        String last = args.substring(start[0]).trim();
        if (!last.isEmpty() || !out.isEmpty()) out.add(last);
        return out;
    }

    /**
     * Hands {@code at} each index of {@code s} from {@code from} that is outside a double-quoted
     * string (whose C escapes may hide a quote), and stops at the first it accepts: that index, or -1.
     */
    private static int outsideStrings(String s, int from, IntPredicate at) {
        boolean inString = false;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (inString) {
                if (c == '\\') i++;
                else if (c == '"') inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (at.test(i)) {
                return i;
            }
        }
        return -1;
    }

    /** The n-th top-level argument (0-based), if there is one. */
    static Optional<String> arg(String args, int n) {
        List<String> all = split(args);
        return n < all.size() ? Optional.of(all.get(n)) : Optional.empty();
    }

    /**
     * A file descriptor argument: "5", or "5</dev/nvidiactl>" as {@code strace -y} prints it.
     * AT_FDCWD and anything else that is not a number gives empty.
     */
    static OptionalInt fd(String arg) {
        int end = 0;
        while (end < arg.length() && Character.isDigit(arg.charAt(end))) end++;
        if (end == 0 || end > 9) return OptionalInt.empty();
        if (end < arg.length() && arg.charAt(end) != '<') return OptionalInt.empty();
        return OptionalInt.of(Integer.parseInt(arg, 0, end, 10));
    }

    /** The path that {@code strace -y} prints beside a descriptor ("5</dev/nvidia0>"), if any. */
    static Optional<String> fdPath(String arg) {
        int lt = arg.indexOf('<');
        if (lt <= 0 || !arg.endsWith(">") || fd(arg).isEmpty()) return Optional.empty();
        return Optional.of(arg.substring(lt + 1, arg.length() - 1));
    }

    /** A number as strace prints it: decimal, negative, or hex (0x...). */
    static OptionalLong number(String token) {
        String t = token.trim();
        int end = 0;
        boolean neg = t.startsWith("-");
        int i = neg ? 1 : 0;
        try {
            if (t.startsWith("0x", i)) {
                end = i + 2;
                while (end < t.length() && Character.digit(t.charAt(end), 16) >= 0) end++;
                if (end == i + 2) return OptionalLong.empty();
                long v = Long.parseUnsignedLong(t, i + 2, end, 16);
                return OptionalLong.of(neg ? -v : v);
            }
            end = i;
            while (end < t.length() && Character.isDigit(t.charAt(end))) end++;
            if (end == i || end - i > 18) return OptionalLong.empty();
            long v = Long.parseLong(t, i, end, 10);
            return OptionalLong.of(neg ? -v : v);
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * The first string literal in the text, with its escapes decoded; empty when there is none.
     * A truncated literal ({@code "abc"...}) gives what was printed.
     */
    static Optional<String> firstString(String text) {
        int q = text.indexOf('"');
        if (q < 0) return Optional.empty();
        StringBuilder sb = new StringBuilder();
        for (int i = q + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') return Optional.of(sb.toString());
            if (c != '\\' || i + 1 >= text.length()) {
                sb.append(c);
                continue;
            }
            char e = text.charAt(++i);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'v' -> sb.append('\u000b');
                case 'f' -> sb.append('\f');
                case 'x' -> {
                    int end = i + 1;
                    while (end < text.length() && end < i + 3 && Character.digit(text.charAt(end), 16) >= 0) end++;
                    if (end > i + 1) sb.append((char) Integer.parseInt(text, i + 1, end, 16));
                    i = end - 1;
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int end = i;
                        while (end < text.length() && end < i + 3 && text.charAt(end) >= '0' && text.charAt(end) <= '7') end++;
                        sb.append((char) Integer.parseInt(text, i, end, 8));
                        i = end - 1;
                    } else {
                        sb.append(e); // \" and \\ and anything strace escapes that we do not know
                    }
                }
            }
        }
        return Optional.empty(); // the line ended inside the string: a cut line
    }
}
