// Issue 17 lab (not part of hostside): getppid through java.lang.foreign linked plainly and critical,
// the C loop of refs run inside this JVM (libcloop.so), labs; wall time, interleaved in one JVM.
// gcc -O2 -shared -fPIC -o libcloop.so cloop.c -lpthread
// java --enable-native-access=ALL-UNNAMED -Dlib=$PWD/libcloop.so Lab.java 100000 9
import java.lang.foreign.*;
import java.lang.invoke.*;
import static java.lang.foreign.ValueLayout.*;
import java.util.*;

public class Lab {
    static final Linker L = Linker.nativeLinker();
    static final SymbolLookup LIB = SymbolLookup.libraryLookup(System.getProperty("lib"), Arena.global());
    static final MemorySegment SYSCALL = L.defaultLookup().find("syscall").orElseThrow();
    static final MethodHandle SYS = L.downcallHandle(SYSCALL, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    static final MethodHandle SYS_CRIT = L.downcallHandle(SYSCALL, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), Linker.Option.critical(false));
    static final MethodHandle CLOOP = L.downcallHandle(LIB.find("c_getppid_loop").orElseThrow(), FunctionDescriptor.of(JAVA_DOUBLE, JAVA_LONG));
    static final MethodHandle LABS = L.downcallHandle(L.defaultLookup().find("labs").orElseThrow(), FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    static volatile long sink;

    static double plain(int n) throws Throwable { long s=0; long t0=System.nanoTime(); for(int k=0;k<n;k++) s+=(long)SYS.invokeExact(110L); long t1=System.nanoTime(); sink+=s; return (t1-t0)/(double)n; }
    static double crit(int n) throws Throwable { long s=0; long t0=System.nanoTime(); for(int k=0;k<n;k++) s+=(long)SYS_CRIT.invokeExact(110L); long t1=System.nanoTime(); sink+=s; return (t1-t0)/(double)n; }
    static double labs(int n) throws Throwable { long s=0; long t0=System.nanoTime(); for(int k=0;k<n;k++) s+=(long)LABS.invokeExact((long)k); long t1=System.nanoTime(); sink+=s; return (t1-t0)/(double)n; }
    static double cloop(int n) throws Throwable { return (double)CLOOP.invokeExact((long)n); }

    interface S { double run(int n) throws Throwable; }
    public static void main(String[] a) throws Throwable {
        int n = Integer.parseInt(a.length>0?a[0]:"200000"), rounds = Integer.parseInt(a.length>1?a[1]:"7");
        Map<String,S> m = new LinkedHashMap<>();
        m.put("java-plain", Lab::plain); m.put("java-critical", Lab::crit); m.put("c-loop-in-jvm", Lab::cloop); m.put("labs", Lab::labs);
        Map<String,List<Double>> res = new LinkedHashMap<>();
        for (int w=0; w<3; w++) for (S s : m.values()) s.run(n);
        for (int r=0;r<rounds;r++) for (var e: m.entrySet()) res.computeIfAbsent(e.getKey(), k->new ArrayList<>()).add(e.getValue().run(n));
        for (var e: res.entrySet()) { var v=new ArrayList<>(e.getValue()); Collections.sort(v); System.out.printf(Locale.ROOT,"%-16s median %8.1f min %8.1f max %8.1f%n", e.getKey(), v.get(v.size()/2), v.get(0), v.get(v.size()-1)); }
    }
}
