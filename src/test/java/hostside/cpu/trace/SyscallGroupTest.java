package hostside.cpu.trace;

import static hostside.cpu.trace.SyscallGroup.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Module 3's grouping, on the lines where a name alone would mislead. */
class SyscallGroupTest {
    static final FdLookup FDS = fd -> Optional.ofNullable(Map.of(5, "/dev/nvidiactl", 6, "/dev/nvidia-uvm", 7, "/dev/nvidia0",
            3, "/home/me/data.bin", 10, "pipe:[1234]", 11, "socket:[99]", 12, "anon_inode:[eventfd]", 13, "/dev/nvidia-caps/nvidia-cap2").get(fd));

    /** The group of one line of a timed trace, with {@link #FDS} as the process's descriptors. */
    static SyscallGroup line(String line) {
        TraceLine l = TraceLine.parse(line);
        return switch (l) {
            case TraceLine.Call c -> SyscallGroup.of(c.name(), c.args(), FDS);
            case TraceLine.Unfinished u -> SyscallGroup.of(u.name(), u.args(), FDS);
            default -> throw new AssertionError("not a call: " + line);
        };
    }

    @Test
    void futexWaitsAndWakesByOperation() {
        assertThat(line("1 10:00:00.1 futex(0x5599ecd5f9a0, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 0, NULL, FUTEX_BITSET_MATCH_ANY) = 0 <0.001>"))
                .isEqualTo(FUTEX_WAIT);
        assertThat(line("1 10:00:00.1 futex(0x7f919174e6f8, FUTEX_WAIT_PRIVATE, 2, NULL <unfinished ...>")).isEqualTo(FUTEX_WAIT);
        assertThat(line("1 10:00:00.1 futex(0x7f919174e6f4, FUTEX_WAIT_BITSET_PRIVATE, 0, {tv_sec=13062, tv_nsec=350775525}, FUTEX_BITSET_MATCH_ANY) = -1 EAGAIN (Resource temporarily unavailable) <0.000023>"))
                .as("a wait that did not block is still a wait").isEqualTo(FUTEX_WAIT);
        assertThat(line("1 10:00:00.1 futex(0x1, FUTEX_WAIT, 0, NULL) = 0 <0.1>")).isEqualTo(FUTEX_WAIT);
        assertThat(line("1 10:00:00.1 futex(0x1, FUTEX_LOCK_PI_PRIVATE, 0, NULL) = 0 <0.1>")).isEqualTo(FUTEX_WAIT);
        assertThat(line("1 10:00:00.1 futex(0x1, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 0, NULL, 0x2) = 0 <0.1>")).isEqualTo(FUTEX_WAIT);
        assertThat(line("1 10:00:00.1 futex(0x7f919174e6f8, FUTEX_WAKE_PRIVATE, 1) = 1 <0.000036>")).isEqualTo(FUTEX_WAKE);
        assertThat(line("1 10:00:00.1 futex(0x1, FUTEX_WAKE_OP_PRIVATE, 1, 1, 0x2, FUTEX_OP_SET<<28|0<<12|FUTEX_OP_CMP_GT<<24|0x1) = 1 <0.1>"))
                .isEqualTo(FUTEX_WAKE);
        assertThat(line("1 10:00:00.1 futex(0x1, FUTEX_CMP_REQUEUE_PRIVATE, 1, 2147483647, 0x2, 0) = 0 <0.1>")).isEqualTo(FUTEX_WAKE);
        assertThat(line("1 10:00:00.1 futex(0x1, FUTEX_UNLOCK_PI_PRIVATE) = 0 <0.1>")).isEqualTo(FUTEX_WAKE);
        assertThat(line("1 10:00:00.1 futex(0x1, FUTEX_TRYLOCK_PI) = 0 <0.1>")).as("neither waits nor wakes").isEqualTo(FUTEX);
    }

    @Test
    void futexOperationsPrintedAsNumbers() {
        assertThat(line("1 10:00:00.1 futex(0x1, 0x80, 0, NULL) = 0 <0.1>")).as("FUTEX_WAIT|FUTEX_PRIVATE_FLAG").isEqualTo(FUTEX_WAIT);
        assertThat(line("1 10:00:00.1 futex(0x1, 0x81, 1) = 0 <0.1>")).isEqualTo(FUTEX_WAKE);
        assertThat(line("1 10:00:00.1 futex(0x1, 393, 0, NULL, 0xffffffff) = 0 <0.1>")).as("WAIT_BITSET|PRIVATE|CLOCK_REALTIME").isEqualTo(FUTEX_WAIT);
        assertThat(line("1 10:00:00.1 futex(0x1, 0x7f, 0) = 0 <0.1>")).isEqualTo(FUTEX);
    }

    @Test
    void newFutexCallsAndNamesAlone() {
        assertThat(line("1 10:00:00.1 futex_waitv([{val=0, uaddr=0x1, flags=FUTEX2_SIZE_U32|FUTEX2_PRIVATE}], 1, 0, NULL, CLOCK_MONOTONIC) = 0 <0.1>"))
                .isEqualTo(FUTEX_WAIT);
        assertThat(SyscallGroup.ofName("futex")).as("strace -c has no operation").isEqualTo(FUTEX);
        assertThat(SyscallGroup.ofName("futex_waitv")).isEqualTo(FUTEX_WAIT);
        assertThat(SyscallGroup.ofName("ioctl")).isEqualTo(IOCTL_UNKNOWN);
        assertThat(SyscallGroup.of("futex", ") = 0", SyscallGroup.FdLookup.NONE)).as("only the second half").isEqualTo(FUTEX);
    }

    @Test
    void ioctlByWhatItsDescriptorIs() {
        assertThat(line("1 10:00:00.1 ioctl(5, _IOC(_IOC_READ|_IOC_WRITE, 0x46, 0x2a, 0x20), 0x7ffd5c0b5c10) = 0 <0.000009>")).isEqualTo(IOCTL_NVIDIA);
        assertThat(line("1 10:00:00.1 ioctl(6, UVM_INITIALIZE, 0x7ffd5c0b5ae0) = 0 <0.00005>")).isEqualTo(IOCTL_NVIDIA);
        assertThat(line("1 10:00:00.1 ioctl(7, _IOC(_IOC_READ|_IOC_WRITE, 0x46, 0xc9, 0x4) <unfinished ...>")).isEqualTo(IOCTL_NVIDIA);
        assertThat(line("1 10:00:00.1 ioctl(13, _IOC(_IOC_READ, 0x46, 0x1, 0x8), 0x7ffd) = 0 <0.00001>")).isEqualTo(IOCTL_NVIDIA);
        assertThat(line("1 10:00:00.1 ioctl(3, TCGETS, 0x7ffd5c0b5d00) = -1 ENOTTY (Inappropriate ioctl for device) <0.000004>")).isEqualTo(IOCTL_OTHER);
        assertThat(line("1 10:00:00.1 ioctl(11, FIONREAD, [0]) = 0 <0.000003>")).isEqualTo(IOCTL_OTHER);
        assertThat(line("1 10:00:00.1 ioctl(42, TCGETS, 0x7ffd5c0b5d00) = -1 ENOTTY (Inappropriate ioctl for device) <0.000004>"))
                .as("a descriptor opened before the trace").isEqualTo(IOCTL_UNKNOWN);
        assertThat(line("1 10:00:00.1 ioctl(42</dev/nvidia3>, _IOC(_IOC_READ|_IOC_WRITE, 0x46, 0xc9, 0x4), 0x7ffd) = 0 <0.00001>"))
                .as("strace -y says what it is").isEqualTo(IOCTL_NVIDIA);
        assertThat(line("1 10:00:00.1 ioctl(5</dev/pts/0>, TCGETS, {c_iflag=ICRNL}) = 0 <0.00001>")).as("-y wins over the table").isEqualTo(IOCTL_OTHER);
        assertThat(SyscallGroup.isNvidia("/dev/nvidiactl")).isTrue();
        assertThat(SyscallGroup.isNvidia("/dev/nvme0n1")).isFalse();
    }

    @Test
    void readsOnPipesAndSocketsAreIpcNotFiles() {
        assertThat(line("1 10:00:00.1 read(3, \"x\", 4096) = 1 <0.00001>")).isEqualTo(FILE);
        assertThat(line("1 10:00:00.1 read(10, \"xxxx\"..., 4096) = 100 <0.011879>")).isEqualTo(SOCKET);
        assertThat(line("1 10:00:00.1 write(11, \"batch\", 5) = 5 <0.00001>")).isEqualTo(SOCKET);
        assertThat(line("1 10:00:00.1 write(3, \"batch\", 5) = 5 <0.00001>")).as("writes are not file reads").isEqualTo(OTHER);
        assertThat(line("1 10:00:00.1 read(42, \"x\", 1) = 1 <0.00001>")).as("unknown descriptor: a file read by name").isEqualTo(FILE);
        assertThat(line("1 10:00:00.1 close(10) = 0 <0.00001>")).isEqualTo(SOCKET);
        assertThat(line("1 10:00:00.1 recvfrom(42, \"batch\", 64, 0, NULL, NULL) = 5 <0.000825>")).isEqualTo(SOCKET);
        assertThat(line("1 10:00:00.1 sendmsg(11, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"\", iov_len=1}], msg_iovlen=1, msg_control=[{cmsg_len=20, cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS, cmsg_data=[14]}], msg_controllen=24, msg_flags=0}, 0) = 1 <0.00002>"))
                .isEqualTo(SOCKET);
    }

    @Test
    void theRestByName() {
        assertThat(SyscallGroup.ofName("mmap")).isEqualTo(MEMORY);
        assertThat(SyscallGroup.ofName("madvise")).isEqualTo(MEMORY);
        assertThat(SyscallGroup.ofName("mremap")).isEqualTo(MEMORY);
        assertThat(SyscallGroup.ofName("newfstatat")).isEqualTo(FILE);
        assertThat(SyscallGroup.ofName("getdents64")).isEqualTo(FILE);
        assertThat(SyscallGroup.ofName("pread64")).isEqualTo(FILE);
        assertThat(SyscallGroup.ofName("epoll_pwait")).isEqualTo(POLL);
        assertThat(SyscallGroup.ofName("sched_yield")).isEqualTo(POLL);
        assertThat(SyscallGroup.ofName("clock_nanosleep")).isEqualTo(POLL);
        assertThat(SyscallGroup.ofName("clone3")).isEqualTo(PROCESS);
        assertThat(SyscallGroup.ofName("wait4")).isEqualTo(PROCESS);
        assertThat(SyscallGroup.ofName("accept4")).isEqualTo(SOCKET);
        assertThat(SyscallGroup.ofName("write")).isEqualTo(OTHER);
        assertThat(SyscallGroup.ofName("getpid")).isEqualTo(OTHER);
        assertThat(SyscallGroup.ofName("syscall_0x1b4")).isEqualTo(OTHER);
    }

    @Test
    void everyGroupHasALabelAndMeaning() {
        for (SyscallGroup g : SyscallGroup.values()) {
            assertThat(g.label()).isNotBlank();
            assertThat(g.meaning()).isNotBlank();
        }
        assertThat(FUTEX_WAIT.isFutex()).isTrue();
        assertThat(IOCTL_UNKNOWN.isIoctl()).isTrue();
        assertThat(MEMORY.isFutex() || MEMORY.isIoctl()).isFalse();
    }
}
