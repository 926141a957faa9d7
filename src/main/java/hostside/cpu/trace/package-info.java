/**
 * Module 3's syscall profile of a training step: strace run twice over the same workload, read
 * back, grouped, and explained.
 *
 * <p>What {@code hostside cpu --trace} calls, in order:
 * <pre>
 * Strace strace = Strace.locate();                       // TraceUnavailableException: the install line
 * Target target = args.isEmpty()
 *         ? BuiltinStep.probe().target().orElse(fallback) // BuiltinStep.reason() says why not
 *         : Target.command(args);                         // or Target.pid(pid)
 * Tracer tracer = new Tracer(strace);
 * TraceLimits limits = TraceLimits.of(Duration.ofSeconds(n)); // --seconds; 200 MiB file cap
 * Tracer.SummaryRun c = tracer.summary(target, limits);   // strace -f -c -w
 * Tracer.TimedRun   t = tracer.timed(target, limits);     // strace -f -tt -T (fds from /proc for --pid)
 * SyscallProfile whole = SyscallProfile.of(t);            // the whole run: groups, threads, notes
 * SyscallProfile profile = SyscallProfile.stepsOf(t).orElse(whole); // the marked steps (the built-in step marks its 50)
 * ProfileVerdicts.headline(profile), ProfileTables.groups(profile), ProfileTables.threads(profile, 10)
 * ProfileVerdicts.of(profile)                             // findings, plus ProfileVerdicts.CAVEAT and profile.notes()
 * ProfileTables.groupsSideBySide(SyscallProfile.of(c), profile), ProfileTables.summary(c.summary(), 15)
 * CrossCheck.compare(c, t)                                // headline + ProfileTables.crossCheck(...)
 * </pre>
 * Every run kills what it started and deletes its output file before it returns or throws,
 * and on JVM exit too.
 */
package hostside.cpu.trace;
