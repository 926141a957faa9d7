package hostside.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.fs.FsRoot;

/**
 * Access Control Services of one PCIe port, read from its config space. With P2P Request
 * Redirect set on a switch's downstream port, a GPU's reads and writes to a peer under the same
 * switch are sent up to the root complex first (and the IOMMU), so peer copies cross the CPU at
 * a fraction of the switch's bandwidth, or fail: the cause NCCL's troubleshooting guide names
 * when "P2P through a PCIe switch" is slow or hangs. Hypervisors need ACS for isolation, so in a
 * VM it is expected; on bare metal it is a BIOS or kernel setting.
 *
 * @param address    the port's PCI address
 * @param present    the port has an ACS extended capability
 * @param capability the ACS Capability register (what the port can do), 0 when absent
 * @param control    the ACS Control register (what is switched on), 0 when absent
 * @param unknown    why the capability could not be read (config space beyond 256 bytes needs
 *                   root), or null when it was
 */
public record PciAcs(String address, boolean present, int capability, int control, String unknown) {
    static final int EXT_CAP_ACS = 0x000D;
    static final int EXT_CAP_START = 0x100;
    /** PCIe extended capabilities live in 4 KiB; a looping or broken list stops here. */
    static final int MAX_CAPS = 64;
    static final int SOURCE_VALIDATION = 1, TRANSLATION_BLOCKING = 1 << 1, P2P_REQUEST_REDIRECT = 1 << 2,
            P2P_COMPLETION_REDIRECT = 1 << 3, UPSTREAM_FORWARDING = 1 << 4, P2P_EGRESS_CONTROL = 1 << 5,
            DIRECT_TRANSLATED_P2P = 1 << 6;
    private static final List<Map.Entry<Integer, String>> NAMES = List.of(
            Map.entry(SOURCE_VALIDATION, "source validation"), Map.entry(TRANSLATION_BLOCKING, "translation blocking"),
            Map.entry(P2P_REQUEST_REDIRECT, "P2P request redirect"), Map.entry(P2P_COMPLETION_REDIRECT, "P2P completion redirect"),
            Map.entry(UPSTREAM_FORWARDING, "upstream forwarding"), Map.entry(P2P_EGRESS_CONTROL, "P2P egress control"),
            Map.entry(DIRECT_TRANSLATED_P2P, "direct translated P2P"));

    public static PciAcs read(FsRoot fs, String address) {
        Optional<byte[]> config = fs.bytes("/sys/bus/pci/devices/" + address + "/config");
        if (config.isEmpty()) return new PciAcs(address, false, 0, 0, "config space unreadable");
        return parse(address, config.get());
    }

    /** Walks the extended capability list from 0x100 to the ACS one, if there is one. */
    static PciAcs parse(String address, byte[] config) {
        if (config.length < EXT_CAP_START + 4) {
            return new PciAcs(address, false, 0, 0, "only the first " + config.length + " bytes of config space are readable (the rest needs root)");
        }
        int offset = EXT_CAP_START;
        for (int n = 0; n < MAX_CAPS && offset >= EXT_CAP_START && offset + 8 <= config.length; n++) {
            int header = u32(config, offset);
            if (header == 0 || header == -1) break;
            if ((header & 0xffff) == EXT_CAP_ACS) {
                return new PciAcs(address, true, u16(config, offset + 4), u16(config, offset + 6), null);
            }
            offset = (header >>> 20) & 0xffc;
            if (offset == 0) break;
        }
        return new PciAcs(address, false, 0, 0, null);
    }

    /**
     * The ports on the way between two devices under one host bridge, below the point where
     * their paths meet, as read: a request from either device enters the shared switch through
     * one of them, so any that {@link #redirectsPeerRequests redirects} sends the pair's peer
     * traffic up to the root complex. Empty when the devices do not share a switch (then peer
     * traffic goes through the root complex anyway).
     */
    public static List<PciAcs> between(FsRoot fs, PciDevice a, PciDevice b, Map<String, PciDevice> byAddress) {
        if (a.hostBridge() == null || !a.hostBridge().equals(b.hostBridge())) return List.of();
        List<String> pa = Affinity.chain(a, byAddress), pb = Affinity.chain(b, byAddress);
        int k = 0;
        while (k < pa.size() - 1 && k < pb.size() - 1 && pa.get(k).equals(pb.get(k))) k++;
        if (k == 0) return List.of();
        List<PciAcs> out = new ArrayList<>();
        for (List<String> side : List.of(pa, pb)) {
            for (String port : side.subList(k, side.size() - 1)) out.add(read(fs, port));
        }
        return out;
    }

    public boolean redirectsPeerRequests() {
        return present && (control & P2P_REQUEST_REDIRECT) != 0;
    }

    /** What the Control register switches on, in the spec's words. */
    public List<String> enabled() {
        List<String> out = new ArrayList<>();
        for (var e : NAMES) if ((control & e.getKey()) != 0) out.add(e.getValue());
        return out;
    }

    private static int u16(byte[] b, int i) {
        return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8;
    }

    private static int u32(byte[] b, int i) {
        return u16(b, i) | u16(b, i + 2) << 16;
    }
}
