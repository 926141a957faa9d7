package hostside.cpu.trace;

import static hostside.cpu.trace.StraceSummaryTest.resource;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;

/** The built-in step's traces from the H200 machine: CUDA's real ioctls, a real DataLoader run's summary. */
class H200RecordingTest {
    static TimedTrace cudaInit() throws IOException {
        try (InputStream in = H200RecordingTest.class.getResourceAsStream("timed_h200_cuda_init.txt.gz");
             BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.ISO_8859_1))) {
            return TraceParser.parse(r, FdSeed.NONE);
        }
    }

    @Test
    void cudaSetUpTalksToTheDriverThroughIoctlsOnKnownDescriptors() throws IOException {
        TimedTrace t = cudaInit();
        assertThat(t.lines()).isEqualTo(3000);
        assertThat(t.garbageLines()).isZero();
        assertThat(t.unmatchedResumes()).as("one call's first half lies before the excerpt").isEqualTo(1);
        assertThat(t.nvidiaIoctls()).containsExactlyInAnyOrderEntriesOf(Map.of("/dev/nvidiactl", 370L, "/dev/nvidia-uvm", 96L, "/dev/nvidia0", 37L));
        assertThat(TraceParserTest.calls(t, SyscallGroup.IOCTL_NVIDIA)).isEqualTo(503);
        assertThat(TraceParserTest.calls(t, SyscallGroup.IOCTL_UNKNOWN)).as("every descriptor was opened inside the excerpt").isZero();
        // the rest are Python asking whether a freshly opened file is a terminal
        assertThat(t.syscalls()).filteredOn(c -> c.group() == SyscallGroup.IOCTL_OTHER).singleElement()
                .satisfies(c -> assertThat(c.errors()).isEqualTo(c.calls()));
        SyscallProfile p = SyscallProfile.of(t, "built-in step");
        assertThat(ProfileVerdicts.lines(p)).anySatisfy(l -> assertThat(l).startsWith("503 ioctls on /dev/nvidia* (")
                .contains("370 on /dev/nvidiactl, 96 on /dev/nvidia-uvm, 37 on /dev/nvidia0"));
    }

    @Test
    void theWholeRunSummarised() {
        StraceSummary s = StraceSummary.parse(resource("summary_h200_train_step.txt"));
        assertThat(s.ignored()).isEmpty();
        assertThat(s.calls("futex")).isEqualTo(8143);
        assertThat(s.calls("ioctl")).isEqualTo(2792);
        assertThat(s.calls("newfstatat")).isEqualTo(26508);
        assertThat(s.total().orElseThrow().calls()).isEqualTo(s.totalCalls());
        SyscallProfile p = SyscallProfile.of(s, "built-in step", 13.2);
        assertThat(p.groups().getFirst().group()).isEqualTo(SyscallGroup.FUTEX);
        assertThat(ProfileVerdicts.lines(p)).anySatisfy(l -> assertThat(l).startsWith("90% of the syscall time is futex (8,143 calls;"))
                .anySatisfy(l -> assertThat(l).startsWith("26,576 stat calls and 4,909 opens"));
    }
}
