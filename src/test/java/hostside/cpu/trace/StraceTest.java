package hostside.cpu.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.BadInputException;
import hostside.fs.FsRoot;

/** Finding strace, its version, and saying what to do when it is missing or ptrace is denied. */
class StraceTest {
    @TempDir
    Path dir;

    static Path script(Path dir, String name, String body) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void missingStraceSaysHowToInstallIt() throws IOException {
        Path empty = Files.createDirectory(dir.resolve("bin"));
        script(empty, "cat", "exit 0");
        assertThat(Strace.find(empty + ":" + dir.resolve("nowhere"))).isEmpty();
        assertThat(Strace.find("")).isEmpty();
        assertThat(Strace.find(null)).isEmpty();
        assertThat(Strace.NOT_INSTALLED).isEqualTo(
                "strace is not installed: apt-get install strace (Debian/Ubuntu), dnf install strace (Fedora/RHEL)");
        TraceUnavailableException e = new TraceUnavailableException(Strace.NOT_INSTALLED);
        assertThat(e).isInstanceOf(BadInputException.class).hasMessageNotContaining("\n");
    }

    @Test
    void aFileThatIsNotExecutableIsNotStrace() throws IOException {
        Files.writeString(dir.resolve("strace"), "not a program");
        assertThat(Strace.find(dir.toString())).isEmpty();
    }

    @Test
    void versionFromStraceDashV() throws IOException {
        script(dir, "strace", "echo 'strace -- version 5.10'; echo 'Copyright (c) 1991-2020 The strace developers <https://strace.io>.'");
        Strace s = Strace.find(dir.toString()).orElseThrow();
        assertThat(s.executable()).isEqualTo(dir.resolve("strace"));
        assertThat(s.version()).isEqualTo("5.10");
        assertThat(Strace.parseVersion("strace -- version 6.1")).isEqualTo("6.1");
        assertThat(Strace.parseVersion("something else")).isEqualTo("unknown");
        assertThat(Strace.parseVersion(null)).isEqualTo("unknown");
    }

    @Test
    void aStraceThatHangsOnDashVStillIsFoundWithAnUnknownVersion() throws IOException {
        script(dir, "strace", "exec sleep 30");
        long t0 = System.nanoTime();
        Strace s = Strace.find(dir.toString()).orElseThrow();
        assertThat(s.version()).isEqualTo("unknown");
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(20);
    }

    @Test
    void theStraceOfThisMachine() {
        Optional<Strace> s = Strace.find(System.getenv("PATH"));
        assumeTrue(s.isPresent(), "strace is not installed here");
        assertThat(s.get().version()).matches("\\d+(\\.\\d+)+");
        assertThat(Strace.locate()).isEqualTo(s.get());
    }

    // ---- ptrace denied ----

    static final String SEIZE = "strace: attach: ptrace(PTRACE_SEIZE, 4242): Operation not permitted\n";
    static final String TRACEME = "strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted\n"
            + "strace: ptrace(PTRACE_TRACEME, ...): Operation not permitted\n+++ exited with 1 +++\n";

    @Test
    void deniedPtraceIsToldFromOtherFailures() {
        assertThat(Strace.ptraceDenied(SEIZE)).isTrue();
        assertThat(Strace.ptraceDenied(TRACEME)).isTrue();
        assertThat(Strace.ptraceDenied("strace: attach: ptrace(PTRACE_SEIZE, 999999): No such process\n")).isFalse();
        assertThat(Strace.ptraceDenied("strace: Can't stat 'nosuchcmd': No such file or directory\n")).isFalse();
        assertThat(Strace.ptraceDenied("rm: cannot remove 'x': Operation not permitted\n")).as("the command's own error").isFalse();
        assertThat(Strace.ptraceDenied(null)).isFalse();
    }

    @Test
    void yamaOneWithoutCapSysPtraceForAttach() {
        String s = Strace.ptraceAdvice(SEIZE, true, OptionalInt.of(1), Optional.of(false));
        assertThat(s).startsWith("ptrace was denied (strace: attach: ptrace(PTRACE_SEIZE, 4242): Operation not permitted): ")
                .contains("kernel.yama.ptrace_scope is 1").contains("sudo sysctl kernel.yama.ptrace_scope=0")
                .contains("hostside cpu --trace -- CMD").doesNotContain("\n");
    }

    @Test
    void yamaTwoNeedsRoot() {
        assertThat(Strace.ptraceAdvice(SEIZE, true, OptionalInt.of(2), Optional.of(false))).contains("ptrace_scope is 2").contains("sudo");
    }

    @Test
    void yamaThreeForbidsAll() {
        assertThat(Strace.ptraceAdvice(TRACEME, false, OptionalInt.of(3), Optional.of(true))).contains("ptrace_scope is 3").contains("next boot");
    }

    @Test
    void aContainerWithoutTheCapability() {
        String s = Strace.ptraceAdvice(TRACEME, false, OptionalInt.empty(), Optional.of(false));
        assertThat(s).contains("--cap-add=SYS_PTRACE").contains("securityContext").contains("seccomp").doesNotContain("\n");
        assertThat(Strace.ptraceAdvice(SEIZE, true, OptionalInt.of(0), Optional.of(false))).contains("--cap-add=SYS_PTRACE").contains("another user");
    }

    @Test
    void withTheCapabilitySeccompOrAnotherTracerIsLeft() {
        assertThat(Strace.ptraceAdvice(SEIZE, true, OptionalInt.of(1), Optional.of(true))).contains("seccomp").contains("already traced");
    }

    @Test
    void factsReadThroughFsRoot() throws IOException {
        Path root = dir.resolve("machine");
        Files.createDirectories(root.resolve("proc/sys/kernel/yama"));
        Files.createDirectories(root.resolve("proc/self"));
        Files.createDirectories(root.resolve("sys"));
        Files.writeString(root.resolve("proc/sys/kernel/yama/ptrace_scope"), "1\n");
        Files.writeString(root.resolve("proc/self/status"), "Name:\tjava\nCapEff:\t0000000000000000\n");
        FsRoot fs = FsRoot.open(root.toString());
        assertThat(Strace.hasCapSysPtrace(fs)).contains(false);
        assertThat(Strace.ptraceAdvice(SEIZE, true, fs)).contains("ptrace_scope is 1");
        Files.writeString(root.resolve("proc/self/status"), "Name:\tjava\nCapEff:\t000001ffffffffff\n");
        assertThat(Strace.hasCapSysPtrace(FsRoot.open(root.toString()))).contains(true);
    }

    @Test
    void aCommandOrPidMustBeGiven() {
        assertThatThrownBy(() -> Target.command(java.util.List.of())).isInstanceOf(BadInputException.class);
        assertThatThrownBy(() -> Target.pid(0)).isInstanceOf(BadInputException.class);
        assertThat(Target.command(java.util.List.of("python3", "-c", "print('a b')")).describe()).isEqualTo("python3 -c 'print('\\''a b'\\'')'");
        assertThat(Target.command(java.util.List.of("python3", "-c", "x"), "the built-in step").describe()).isEqualTo("the built-in step");
        assertThat(Target.pid(42).describe()).isEqualTo("PID 42");
    }
}
