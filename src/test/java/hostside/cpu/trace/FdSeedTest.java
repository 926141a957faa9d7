package hostside.cpu.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;

/** --pid: what the process had open before the trace, read from /proc/PID/fd through FsRoot. */
class FdSeedTest {
    @TempDir
    Path dir;

    /** Removes the links first, so that the temporary folder's clean-up meets none pointing outside it. */
    @org.junit.jupiter.api.AfterEach
    void removeLinks() throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isSymbolicLink).toList()) Files.delete(p);
        }
    }

    @Test
    void recordedProcessDescriptorsAndThreads() throws IOException {
        Path proc = dir.resolve("proc/4242");
        Files.createDirectories(dir.resolve("sys"));
        Files.createDirectories(proc.resolve("fd"));
        Files.createDirectories(proc.resolve("task/4242"));
        Files.createDirectories(proc.resolve("task/4250"));
        Files.writeString(proc.resolve("task/4242/comm"), "python3\n");
        Files.writeString(proc.resolve("task/4250/comm"), "pt_autograd_0\n");
        Files.createSymbolicLink(proc.resolve("fd/0"), Path.of("/dev/null"));
        Files.createSymbolicLink(proc.resolve("fd/8"), Path.of("/dev/nvidiactl"));
        Files.createSymbolicLink(proc.resolve("fd/9"), Path.of("/dev/nvidia-uvm"));
        Files.createSymbolicLink(proc.resolve("fd/12"), Path.of("socket:[123456]"));
        FdSeed seed = FdSeed.fromProc(FsRoot.open(dir.toString()), 4242);
        assertThat(seed.tids()).containsExactlyInAnyOrder(4242, 4250);
        assertThat(seed.fds()).containsExactlyInAnyOrderEntriesOf(Map.of(0, "/dev/null", 8, "/dev/nvidiactl", 9, "/dev/nvidia-uvm", 12, "socket:[123456]"));
        assertThat(seed.names()).containsEntry(4250, "pt_autograd_0");

        TimedTrace t = TraceParser.parse(new BufferedReader(new StringReader("""
                4250 10:00:00.000100 ioctl(8, _IOC(_IOC_READ|_IOC_WRITE, 0x46, 0x2a, 0x20), 0x7f3a3fdfe9a0) = 0 <0.000010>
                4242 10:00:00.000200 ioctl(9, UVM_TOOLS_READ_PROCESS_MEMORY, 0x7ffd) = 0 <0.000010>
                4242 10:00:00.000300 sendmsg(12, {msg_name=NULL}, 0) = 1 <0.000010>
                4242 10:00:00.000400 read(12, "x", 1) = 1 <0.000010>
                4242 10:00:00.000500 ioctl(13, TCGETS, 0x7ffd) = -1 EBADF (Bad file descriptor) <0.000010>
                """)), seed);
        assertThat(t.nvidiaIoctls()).containsExactlyInAnyOrderEntriesOf(Map.of("/dev/nvidiactl", 1L, "/dev/nvidia-uvm", 1L));
        assertThat(t.syscalls()).anySatisfy(c -> assertThat(c).isEqualTo(new TimedTrace.SyscallCount("read", SyscallGroup.SOCKET, 1, 0, 0.00001)));
        assertThat(t.threads()).filteredOn(th -> th.tid() == 4250).singleElement()
                .satisfies(th -> assertThat(th.name()).isEqualTo("pt_autograd_0"))
                .satisfies(th -> assertThat(th.process()).isEqualTo(4242));
    }

    @Test
    void aProcessThatIsGoneGivesAnEmptySeed() throws IOException {
        Files.createDirectories(dir.resolve("proc"));
        FdSeed seed = FdSeed.fromProc(FsRoot.open(dir.toString()), 777);
        assertThat(seed.fds()).isEmpty();
        assertThat(seed.tids()).containsExactly(777);
    }

    @Test
    void thisProcessLive() {
        long self = ProcessHandle.current().pid();
        FdSeed seed = FdSeed.fromProc(FsRoot.live(), self);
        assertThat(seed.tids()).contains((int) self);
        assertThat(seed.fds()).isNotEmpty();
    }
}
