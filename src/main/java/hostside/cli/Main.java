package hostside.cli;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import hostside.core.BadInputException;
import hostside.core.Printable;

// scope = INHERIT: every subcommand takes -h/-V, the version provider and the wrapping from here (a subcommand
// without a versionProvider printed nothing for -V); usageHelpAutoWidth wraps at the terminal's width, and
// usageHelpWidth is the width where there is no terminal (a pipe, a test); blank lines set the sections apart.
@Command(name = "hostside", scope = CommandLine.ScopeType.INHERIT, mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        usageHelpAutoWidth = true, usageHelpWidth = Main.HELP_WIDTH,
        descriptionHeading = "%n", optionListHeading = "%nOptions:%n", commandListHeading = "%nCommands:%n",
        header = "The host side of a GPU machine: how it is wired, measured and explained.",
        description = "Each command answers one module's questions about this machine, or about one recorded with snapshot (--root). Run hostside COMMAND --help for what a command reads, measures and costs.",
        subcommands = {MachineCommand.class, VmCommand.class, CpuCommand.class, IoCommand.class, ContainerCommand.class,
                ChecklistCommand.class, RackCommand.class, HealthCommand.class, ReportCommand.class, CompareCommand.class, FleetCommand.class, LearnCommand.class, SnapshotCommand.class,
                BundleCommand.class, RulesCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    /** docs/contract.md's exit codes. */
    public static final int OK = 0, FAILED = 1, BAD_INPUT = 2;
    /** The width of help where the terminal's is not known: 80 columns, what a terminal opens with. */
    public static final int HELP_WIDTH = 80;

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        PrintWriter err = new PrintWriter(System.err, true);
        // A thread of a drill's own (a progress ticker, the learn server's handlers, a reader of a
        // child's output) that dies must not print Java's trace: one line, as for the main thread.
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (e instanceof OutOfMemoryError) {
                // out of memory anywhere leaves the run unable to finish: stop now, with the line said
                err.println(OUT_OF_MEMORY + (Runtime.getRuntime().maxMemory() >> 20) + OUT_OF_MEMORY_ADVICE);
                Runtime.getRuntime().halt(FAILED);
            }
            err.println("hostside: failed in " + Printable.of(t.getName()) + ": " + Printable.of(inWords(e)) + hint());
            if (debug()) e.printStackTrace(err);
        });
        StdoutGuard stdout = new StdoutGuard();
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(stdout, System.out.charset()), true);
        int code = run(args, out, err);
        out.flush();
        System.exit(stdoutLost(stdout.failure(), err, code));
    }

    /** The out-of-memory line, in two halves around the heap's limit in MiB: built from constants, since there may be little heap left to build it. */
    private static final String OUT_OF_MEMORY = "hostside: out of memory: the Java heap's limit is ";
    private static final String OUT_OF_MEMORY_ADVICE = " MiB; give it more with HOSTSIDE_JAVA_OPTS=-Xmx<size>, or give it less to read";

    /** The exit status where standard output could not be written: 1, with a line unless the reader left (EPIPE). */
    static int stdoutLost(java.io.IOException failure, PrintWriter err, int code) {
        if (failure == null) return code;
        if (!StdoutGuard.readerLeft(failure)) {
            err.println("hostside: could not write the output to standard output (" + Printable.of(String.valueOf(failure.getMessage()))
                    + "): what was written there is incomplete");
        }
        return code == OK ? FAILED : code;
    }

    /** Runs a command line; the streams are parameters so tests can read what a user would see. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out).setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("hostside: " + Printable.of(ex.getMessage()) + " (try: hostside " + commandName(ex.getCommandLine()) + "--help)");
            return BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof BadInputException) {
                err.println("hostside: " + Printable.of(ex.getMessage()));
                return BAD_INPUT;
            }
            return failed(ex, err);
        });
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            // picocli hands only Exceptions to the handler above; an Error comes out of execute().
            // By now the command's objects are unreachable, so there is heap again to say this.
            err.println(OUT_OF_MEMORY + (Runtime.getRuntime().maxMemory() >> 20) + OUT_OF_MEMORY_ADVICE);
            return FAILED;
        } catch (StackOverflowError e) {
            err.println("hostside: failed: an input nested too deeply to read, or an internal error" + hint());
            if (debug()) e.printStackTrace(err);
            return FAILED;
        } catch (Error e) {
            return failed(e, err);
        }
    }

    private static int failed(Throwable ex, PrintWriter err) {
        err.println("hostside: failed: " + Printable.of(inWords(ex)) + hint());
        if (debug()) ex.printStackTrace(err);
        return FAILED;
    }

    private static String hint() {
        return debug() ? "" : " (HOSTSIDE_DEBUG=1 shows where)";
    }

    /**
     * What went wrong, in words: the message of the exception (or of its cause), its first line.
     * A Java class name means nothing to the user; HOSTSIDE_DEBUG=1 prints the whole trace.
     */
    static String inWords(Throwable ex) {
        // the JDK's own words for a bug ("Cannot invoke java.util.List.iterator() because ...") name Java, not the problem
        if (ex instanceof NullPointerException || ex instanceof ClassCastException || ex instanceof IndexOutOfBoundsException) {
            return "an internal error";
        }
        for (Throwable t = ex; t != null; t = t.getCause()) {
            String m = t.getMessage();
            // new RuntimeException(cause) takes cause.toString() as its message: a class name, so read the cause
            if (t.getCause() != null && t.getCause().toString().equals(m)) continue;
            if (m != null && !m.isBlank()) return m.lines().findFirst().orElse(m).strip();
        }
        return ex instanceof OutOfMemoryError ? "out of memory" : "an internal error";
    }

    private static String commandName(CommandLine cl) {
        return cl.getParent() == null ? "" : cl.getCommandName() + " ";
    }

    private static boolean debug() {
        return "1".equals(System.getenv("HOSTSIDE_DEBUG"));
    }

    public static String version() {
        return hostside.core.Version.of();
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"hostside " + version()};
        }
    }
}
