package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;

/** ACS from a port's config space, and which ports send peer traffic between two GPUs up to the CPU. */
class PciAcsTest {
    @TempDir
    Path root;

    /** 4 KiB of config space: AER at 0x100, then (if acs) ACS at 0x148 with the given control bits. */
    static byte[] config(boolean acs, int control) {
        byte[] b = new byte[4096];
        header(b, 0x100, 0x0001, acs ? 0x148 : 0);
        if (acs) {
            header(b, 0x148, 0x000D, 0);
            u16(b, 0x148 + 4, 0x005f); // SV, TB, RR, CR, UF, DT: what a switch port typically offers
            u16(b, 0x148 + 6, control);
        }
        return b;
    }

    static void header(byte[] b, int at, int id, int next) {
        int h = id | 1 << 16 | next << 20;
        for (int i = 0; i < 4; i++) b[at + i] = (byte) (h >>> 8 * i);
    }

    static void u16(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >>> 8);
    }

    void put(String address, byte[] config) throws IOException {
        Path p = root.resolve("sys/bus/pci/devices/" + address + "/config");
        Files.createDirectories(p.getParent());
        Files.write(p, config);
    }

    @Test
    void theControlRegisterAfterAWalkOfTheCapabilityList() {
        PciAcs a = PciAcs.parse("0000:02:08.0", config(true, PciAcs.SOURCE_VALIDATION | PciAcs.P2P_REQUEST_REDIRECT
                | PciAcs.P2P_COMPLETION_REDIRECT | PciAcs.UPSTREAM_FORWARDING));
        assertThat(a.present()).isTrue();
        assertThat(a.unknown()).isNull();
        assertThat(a.capability()).isEqualTo(0x5f);
        assertThat(a.redirectsPeerRequests()).isTrue();
        assertThat(a.enabled()).containsExactly("source validation", "P2P request redirect", "P2P completion redirect", "upstream forwarding");

        PciAcs off = PciAcs.parse("x", config(true, 0));
        assertThat(off.present()).isTrue();
        assertThat(off.redirectsPeerRequests()).isFalse();
        assertThat(off.enabled()).isEmpty();
    }

    @Test
    void noCapabilityAShortReadAndABrokenListAreToldApart() {
        PciAcs none = PciAcs.parse("x", config(false, 0));
        assertThat(none.present()).isFalse();
        assertThat(none.unknown()).as("read, and there is none").isNull();

        PciAcs user = PciAcs.parse("x", new byte[256]);
        assertThat(user.present()).isFalse();
        assertThat(user.unknown()).contains("256 bytes").contains("root");

        byte[] loop = new byte[4096];
        header(loop, 0x100, 0x0001, 0x100); // points at itself
        PciAcs looped = PciAcs.parse("x", loop);
        assertThat(looped.present()).isFalse();

        byte[] truncated = config(true, PciAcs.P2P_REQUEST_REDIRECT);
        PciAcs cut = PciAcs.parse("x", java.util.Arrays.copyOf(truncated, 0x14c));
        assertThat(cut.present()).as("the ACS header is there but its registers are cut off").isFalse();
    }

    @Test
    void thePortsBelowTheSharedSwitchDecide() throws IOException {
        // AffinityTest's tree: GPU0 under 02:08.0, GPU1 under 02:10.0 -> 04:00.0 -> 05:00.0, both below switch 01:00.0;
        // GPU2 on another root port of the same host bridge; GPU3 on another host bridge.
        List<PciDevice> tree = new AffinityTest().tree;
        Map<String, PciDevice> by = new HashMap<>();
        for (PciDevice d : tree) by.put(d.address(), d);
        PciDevice gpu0 = by.get("0000:03:00.0"), gpu1 = by.get("0000:06:00.0"), gpu2 = by.get("0000:07:00.0"), gpu3 = by.get("0000:41:00.0");
        put("0000:00:01.0", config(true, PciAcs.P2P_REQUEST_REDIRECT)); // the root port: above the meeting point, does not matter
        put("0000:01:00.0", config(false, 0));
        put("0000:02:08.0", config(true, PciAcs.SOURCE_VALIDATION));
        put("0000:02:10.0", config(true, PciAcs.P2P_REQUEST_REDIRECT | PciAcs.P2P_COMPLETION_REDIRECT));
        put("0000:04:00.0", config(false, 0));
        put("0000:05:00.0", new byte[64]);
        FsRoot fs = FsRoot.open(root.toString());

        List<PciAcs> r = PciAcs.between(fs, gpu0, gpu1, by).stream().filter(PciAcs::redirectsPeerRequests).toList();
        assertThat(r).extracting(PciAcs::address).containsExactly("0000:02:10.0");
        assertThat(PciAcs.between(fs, gpu0, gpu2, by)).as("they meet at the root complex: no switch to bypass").isEmpty();
        assertThat(PciAcs.between(fs, gpu0, gpu3, by)).as("other host bridge").isEmpty();

        put("0000:02:10.0", config(true, PciAcs.SOURCE_VALIDATION));
        assertThat(PciAcs.between(FsRoot.open(root.toString()), gpu0, gpu1, by)).noneMatch(PciAcs::redirectsPeerRequests)
                .as("a port read short is an unknown the pair must report").anyMatch(a -> a.address().equals("0000:05:00.0") && a.unknown() != null);
    }

    @Test
    void aMissingConfigFileIsUnknownNotAbsent() throws IOException {
        Files.createDirectories(root.resolve("sys/bus/pci/devices"));
        PciAcs a = PciAcs.read(FsRoot.open(root.toString()), "0000:09:00.0");
        assertThat(a.present()).isFalse();
        assertThat(a.unknown()).isEqualTo("config space unreadable");
    }
}
