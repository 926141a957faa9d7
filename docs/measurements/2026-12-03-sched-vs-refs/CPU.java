// Issue 17 lab (not part of hostside): where the futex ping-pong's and the syscall's extra time goes.
// CPU time of both threads per hand-over (CLOCK_THREAD_CPUTIME_ID), not wall time, so that other
// processes on a shared VM do not hide a 5% difference. Variants, interleaved in one JVM:
//   pp segment        hostside before: futex by syscall(2) with the word as a MemorySegment argument
//   pp long           hostside after: the word's address as a long (no arena acquire/release per call)
//   pp allcrit(lab)   every futex call linked critical (unsafe for FUTEX_WAIT: only to size the transitions; -Dgp=1)
//   pp c-in-jvm       refs' C ping-pong run inside this JVM (libcpp.so)
//   pp java-loop c-hand   a Java loop, each hand-over one downcall to C (wait, store, wake)
//   pp java-thr c-side    two Java threads, each side's whole loop in C
//   getppid plain / critical / c-in-jvm   (-Dgp=1)
// gcc -O2 -shared -fPIC -o libcpp.so cpp.c -lpthread
// java -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -Dlib=$PWD/libcpp.so [-Dgp=1] CPU.java CPU_A CPU_B 20000 9
import java.lang.foreign.*;
import java.lang.invoke.*;
import java.lang.management.*;
import static java.lang.foreign.ValueLayout.*;
import java.util.*;

/** CPU time (both threads), not wall time, per hand-over and per getppid: robust to other processes. */
public class CPU {
    static final Linker L = Linker.nativeLinker();
    static final SymbolLookup LIB = SymbolLookup.libraryLookup(System.getProperty("lib"), Arena.global());
    static final MemorySegment SYSCALL = L.defaultLookup().find("syscall").orElseThrow();
    static final FunctionDescriptor FA = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
    static final FunctionDescriptor FL = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT);
    static final Linker.Option V = Linker.Option.firstVariadicArg(1), C = Linker.Option.critical(false);
    static final MethodHandle FUT_A = L.downcallHandle(SYSCALL, FA, V), FUT_L = L.downcallHandle(SYSCALL, FL, V), FUT_LC = L.downcallHandle(SYSCALL, FL, V, C);
    static final MethodHandle SYS = L.downcallHandle(SYSCALL, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG)), SYS_C = L.downcallHandle(SYSCALL, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), C);
    static final MethodHandle SETAFF = L.downcallHandle(L.defaultLookup().find("sched_setaffinity").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS));
    static final MethodHandle CPP = L.downcallHandle(LIB.find("c_pingpong_cpu").orElseThrow(), FunctionDescriptor.ofVoid(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    static final MethodHandle CGP = L.downcallHandle(LIB.find("c_getppid_cpu").orElseThrow(), FunctionDescriptor.of(JAVA_DOUBLE, JAVA_LONG));
    static final VarHandle W = JAVA_INT.varHandle();
    static final ThreadMXBean TMX = ManagementFactory.getThreadMXBean();
    static volatile long sink;

    static void pin(int cpu) { try (Arena a = Arena.ofConfined()) { var m = a.allocate(128); m.set(JAVA_LONG, 0, 1L << cpu); int r = (int) SETAFF.invokeExact(0, 128L, m); if (r != 0) throw new RuntimeException("pin"); } catch (Throwable t) { throw new RuntimeException(t); } }
    interface Futex { void wait(MemorySegment w, long addr, int v); void wake(MemorySegment w, long addr); }
    static final Futex SEG = new Futex() {
        public void wait(MemorySegment w, long a, int v) { try { long x = (long) FUT_A.invokeExact(202L, w, 128, v, MemorySegment.NULL, MemorySegment.NULL, 0); } catch (Throwable t) { throw new RuntimeException(t); } }
        public void wake(MemorySegment w, long a) { try { long x = (long) FUT_A.invokeExact(202L, w, 129, 1, MemorySegment.NULL, MemorySegment.NULL, 0); } catch (Throwable t) { throw new RuntimeException(t); } } };
    static final Futex LONG = new Futex() {
        public void wait(MemorySegment w, long a, int v) { try { long x = (long) FUT_L.invokeExact(202L, a, 128, v, 0L, 0L, 0); } catch (Throwable t) { throw new RuntimeException(t); } }
        public void wake(MemorySegment w, long a) { try { long x = (long) FUT_L.invokeExact(202L, a, 129, 1, 0L, 0L, 0); } catch (Throwable t) { throw new RuntimeException(t); } } };
    static final Futex ALL_CRIT = new Futex() {
        public void wait(MemorySegment w, long a, int v) { try { long x = (long) FUT_LC.invokeExact(202L, a, 128, v, 0L, 0L, 0); } catch (Throwable t) { throw new RuntimeException(t); } }
        public void wake(MemorySegment w, long a) { try { long x = (long) FUT_LC.invokeExact(202L, a, 129, 1, 0L, 0L, 0); } catch (Throwable t) { throw new RuntimeException(t); } } };
    static void waitFor(Futex f, MemorySegment w, long a, int val) { int v; while ((v = (int) W.getVolatile(w, 0L)) != val) f.wait(w, a, v); }
    static void hand(Futex f, MemorySegment w, long a, int mine, int theirs) { waitFor(f, w, a, mine); W.setVolatile(w, 0L, theirs); f.wake(w, a); }

    /** {wall, cpu} ns per hand-over */
    static double[] java(Futex f, int a, int b, int rounds) throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment w = arena.allocate(64, 64); long addr = w.address();
            long[] el = new long[3];
            Thread tb = Thread.ofPlatform().unstarted(() -> { pin(b); long c0 = TMX.getCurrentThreadCpuTime(); for (int r = 0; r < rounds; r++) hand(f, w, addr, 1, 0); el[2] = TMX.getCurrentThreadCpuTime() - c0; });
            Thread ta = Thread.ofPlatform().unstarted(() -> { pin(a); long c0 = TMX.getCurrentThreadCpuTime(); long t0 = System.nanoTime(); for (int r = 0; r < rounds; r++) hand(f, w, addr, 0, 1); waitFor(f, w, addr, 0); el[0] = System.nanoTime() - t0; el[1] = TMX.getCurrentThreadCpuTime() - c0; });
            tb.start(); ta.start(); ta.join(); tb.join();
            return new double[] {el[0] / (2.0 * rounds), (el[1] + el[2]) / (2.0 * rounds)};
        }
    }
    static double[] cInJvm(int a, int b, int rounds) throws Throwable {
        double[] r = new double[2];
        Thread t = Thread.ofPlatform().unstarted(() -> { try (Arena ar = Arena.ofConfined()) { var x = ar.allocate(8); var y = ar.allocate(8); CPP.invokeExact(a, b, rounds, x, y); r[0] = x.get(JAVA_DOUBLE, 0); r[1] = y.get(JAVA_DOUBLE, 0); } catch (Throwable e) { throw new RuntimeException(e); } });
        t.start(); t.join(); return r;
    }
    static double getppid(MethodHandle h, int n) throws Throwable { long s = 0; long c0 = TMX.getCurrentThreadCpuTime(); for (int k = 0; k < n; k++) s += (long) h.invokeExact(110L); long c1 = TMX.getCurrentThreadCpuTime(); sink += s; return (c1 - c0) / (double) n; }
    static double gpPlain(int n) throws Throwable { long s = 0; long c0 = TMX.getCurrentThreadCpuTime(); for (int k = 0; k < n; k++) s += (long) SYS.invokeExact(110L); long c1 = TMX.getCurrentThreadCpuTime(); sink += s; return (c1 - c0) / (double) n; }
    static double gpCrit(int n) throws Throwable { long s = 0; long c0 = TMX.getCurrentThreadCpuTime(); for (int k = 0; k < n; k++) s += (long) SYS_C.invokeExact(110L); long c1 = TMX.getCurrentThreadCpuTime(); sink += s; return (c1 - c0) / (double) n; }

    static final MethodHandle CHAND = L.downcallHandle(LIB.find("c_hand").orElseThrow(), FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT, JAVA_INT));
    static final MethodHandle CWAIT = L.downcallHandle(LIB.find("c_wait").orElseThrow(), FunctionDescriptor.ofVoid(JAVA_LONG, JAVA_INT));
    static final MethodHandle CSIDE = L.downcallHandle(LIB.find("c_side").orElseThrow(), FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    static void ch(long w, int m, int t) { try { CHAND.invokeExact(w, m, t); } catch (Throwable e) { throw new RuntimeException(e); } }
    /** Java loop, each hand-over one downcall to C */
    static double[] javaLoopCHand(int a, int b, int rounds) throws Exception {
        try (Arena arena = Arena.ofShared()) {
            long w = arena.allocate(64, 64).address();
            long[] el = new long[3];
            Thread tb = Thread.ofPlatform().unstarted(() -> { pin(b); long c0 = TMX.getCurrentThreadCpuTime(); for (int r = 0; r < rounds; r++) ch(w, 1, 0); el[2] = TMX.getCurrentThreadCpuTime() - c0; });
            Thread ta = Thread.ofPlatform().unstarted(() -> { pin(a); long c0 = TMX.getCurrentThreadCpuTime(); long t0 = System.nanoTime(); for (int r = 0; r < rounds; r++) ch(w, 0, 1); try { CWAIT.invokeExact(w, 0); } catch (Throwable e) { throw new RuntimeException(e); } el[0] = System.nanoTime() - t0; el[1] = TMX.getCurrentThreadCpuTime() - c0; });
            tb.start(); ta.start(); ta.join(); tb.join();
            return new double[] {el[0] / (2.0 * rounds), (el[1] + el[2]) / (2.0 * rounds)};
        }
    }
    /** two Java threads, each side's whole loop in C */
    static double[] javaThreadsCSides(int a, int b, int rounds) throws Exception {
        try (Arena arena = Arena.ofShared()) {
            long w = arena.allocate(64, 64).address();
            long[] el = new long[3];
            Thread tb = Thread.ofPlatform().unstarted(() -> { pin(b); try { el[2] = (long) CSIDE.invokeExact(w, 1, 0, rounds, 0); } catch (Throwable e) { throw new RuntimeException(e); } });
            Thread ta = Thread.ofPlatform().unstarted(() -> { pin(a); long t0 = System.nanoTime(); try { el[1] = (long) CSIDE.invokeExact(w, 0, 1, rounds, 1); } catch (Throwable e) { throw new RuntimeException(e); } el[0] = System.nanoTime() - t0; });
            tb.start(); ta.start(); ta.join(); tb.join();
            return new double[] {el[0] / (2.0 * rounds), (el[1] + el[2]) / (2.0 * rounds)};
        }
    }
    interface S { double[] run() throws Throwable; }
    public static void main(String[] args) throws Throwable {
        int a = Integer.parseInt(args[0]), b = Integer.parseInt(args[1]), n = Integer.parseInt(args[2]), rounds = Integer.parseInt(args[3]);
        Map<String, S> m = new LinkedHashMap<>();
        m.put("pp segment", () -> java(SEG, a, b, n));
        m.put("pp long", () -> java(LONG, a, b, n));
        if (System.getProperty("gp") != null) m.put("pp allcrit(lab)", () -> java(ALL_CRIT, a, b, n));
        m.put("pp c-in-jvm", () -> cInJvm(a, b, n));
        m.put("pp java-loop c-hand", () -> javaLoopCHand(a, b, n));
        m.put("pp java-thr c-side", () -> javaThreadsCSides(a, b, n));
        if (System.getProperty("gp") != null) m.put("getppid plain", () -> new double[] {0, gpPlain(200_000)});
        if (System.getProperty("gp") != null) m.put("getppid critical", () -> new double[] {0, gpCrit(200_000)});
        if (System.getProperty("gp") != null) m.put("getppid c-in-jvm", () -> new double[] {0, (double) CGP.invokeExact(200_000L)});
        for (int w = 0; w < 2; w++) for (S s : m.values()) s.run();
        Map<String, List<double[]>> res = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) for (var e : m.entrySet()) res.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue().run());
        for (var e : res.entrySet()) {
            double[] wall = e.getValue().stream().mapToDouble(x -> x[0]).sorted().toArray(), cpu = e.getValue().stream().mapToDouble(x -> x[1]).sorted().toArray();
            System.out.printf(Locale.ROOT, "%-18s wall %8.1f cpu %8.1f (min %8.1f)%n", e.getKey(), wall[wall.length / 2], cpu[cpu.length / 2], cpu[0]);
        }
    }
}
