package hostside.fs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MemInfoTest {
    @Test
    void readsProcMeminfoInBytes() {
        MemInfo m = MemInfo.parse("MemTotal:       131961788 kB\nMemFree:  12 kB\nHugePages_Total:       4\n");
        assertThat(m.get("MemTotal").getAsLong()).isEqualTo(131961788L * 1024);
        assertThat(m.get("HugePages_Total").getAsLong()).isEqualTo(4);
        assertThat(m.get("Nope")).isEmpty();
    }

    @Test
    void readsPerNodeFilesWithTheirPrefix() {
        MemInfo m = MemInfo.parse("Node 0 MemTotal:        6515664 kB\nNode 0 MemFree:         4101008 kB\n");
        assertThat(m.get("MemTotal").getAsLong()).isEqualTo(6515664L * 1024);
    }

    @Test
    void garbledLinesAreLeftOut() {
        MemInfo m = MemInfo.parse("MemTotal: lots kB\nMemFree: 99999999999999999999999 kB\ngarbage\nCached: 10 kB");
        assertThat(m.get("MemTotal")).isEmpty();
        assertThat(m.get("MemFree")).isEmpty();
        assertThat(m.get("Cached").getAsLong()).isEqualTo(10240);
    }
}
