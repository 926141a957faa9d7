package hostside.cpu.trace;

import java.util.List;

import hostside.core.BadInputException;
import hostside.core.Shell;

/** What to trace: a command started under strace, or a running process strace attaches to. */
public sealed interface Target {
    /** {@code hostside cpu --trace -- CMD ARGS}: strace starts the command and follows its children. */
    record Command(List<String> argv, String label) implements Target {
        public Command {
            argv = List.copyOf(argv);
            label = label == null ? "" : label;
        }

        /** The label where one was given (the built-in step has one), else the command line, quoted like a shell would. */
        @Override
        public String describe() {
            if (!label.isEmpty()) return label;
            StringBuilder sb = new StringBuilder();
            for (String a : argv) {
                if (!sb.isEmpty()) sb.append(' ');
                String shown = a.length() > 80 ? a.substring(0, 77) + "..." : a;
                sb.append(Shell.quote(shown.replace("\n", "\\n")));
            }
            return sb.toString();
        }
    }

    /** {@code hostside cpu --trace --pid PID --seconds N}: strace attaches to every thread of PID. */
    record Attach(long pid) implements Target {
        @Override
        public String describe() {
            return "PID " + pid;
        }
    }

    /** The command as a user would type it, or "PID 1234". */
    String describe();

    static Target command(List<String> argv) {
        return command(argv, "");
    }

    /** A command shown under a name of its own (a long {@code python3 -c SCRIPT} as "the built-in step"). */
    static Target command(List<String> argv, String label) {
        if (argv == null || argv.isEmpty() || argv.getFirst().isBlank()) throw new BadInputException("no command to trace (hostside cpu --trace -- CMD ARGS)");
        return new Command(argv, label);
    }

    static Target pid(long pid) {
        if (pid <= 0) throw new BadInputException("--pid " + pid + ": not a process ID");
        return new Attach(pid);
    }
}
