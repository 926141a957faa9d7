package hostside.health.host;

import java.util.ArrayList;
import java.util.List;

import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Read;
import hostside.machine.PciDevice;
import hostside.machine.PciReader;

/**
 * Reads the PCIe AER counters of a list of devices (the GPUs' and NICs' addresses) and of every
 * bridge above each, through {@link FsRoot}. Sources: Documentation/ABI/testing/
 * sysfs-bus-pci-devices-aer_stats and drivers/pci/pcie/aer.c (torvalds/linux).
 */
public final class AerReader {
    static final String DEVICES = "/sys/bus/pci/devices";
    static final List<String> DEV_FILES = List.of("aer_dev_correctable", "aer_dev_nonfatal", "aer_dev_fatal");

    private AerReader() {}

    public static PcieAer read(FsRoot fs, List<String> addresses) {
        List<String> unknowns = new ArrayList<>();
        PciReader pci = new PciReader(fs, unknowns);
        List<AerChain> chains = new ArrayList<>();
        for (String address : addresses) {
            List<PciDevice> path = UpstreamPath.of(pci, address, unknowns);
            if (path.isEmpty()) {
                unknowns.add(DEVICES + "/" + address + ": no such PCI function");
                chains.add(new AerChain(address, AerState.NO_DEVICE, List.of()));
                continue;
            }
            List<AerFunction> functions = new ArrayList<>();
            for (int i = 0; i < path.size(); i++) {
                PciDevice d = path.get(i);
                PcieRole role = i == 0 ? PcieRole.DEVICE : d.upstream() == null ? PcieRole.ROOT_PORT : PcieRole.BRIDGE;
                functions.add(function(fs, d.address(), role, unknowns));
            }
            chains.add(new AerChain(address, chainState(functions), functions));
        }
        return new PcieAer(chains, unknowns);
    }

    static AerFunction function(FsRoot fs, String address, PcieRole role, List<String> unknowns) {
        String dir = DEVICES + "/" + address;
        AerCounts[] counts = new AerCounts[DEV_FILES.size()];
        int missing = 0, failed = 0;
        for (int i = 0; i < counts.length; i++) {
            String path = dir + "/" + DEV_FILES.get(i);
            Read r = fs.read(path);
            if (r instanceof Read.Ok ok) {
                counts[i] = AerCounts.parse(ok.text(), path, unknowns);
            } else if (r instanceof Read.Failed f && f.reason().equals("missing")) {
                missing++;
            } else {
                unknowns.add(r.why());
                failed++;
            }
        }
        AerState state = missing == counts.length ? AerState.NOT_EXPOSED : failed + missing == counts.length ? AerState.UNREADABLE : AerState.COUNTED;
        return new AerFunction(address, role, state, counts[0], counts[1], counts[2], rootPort(fs, dir, unknowns));
    }

    /** The three aer_rootport_total_err_* files, one number each; null when the function has none of them. */
    private static RootPortTotals rootPort(FsRoot fs, String dir, List<String> unknowns) {
        FactReads reads = new FactReads(fs, unknowns);
        String base = dir + "/aer_rootport_total_err_";
        if (!fs.exists(base + "cor") && !fs.exists(base + "nonfatal") && !fs.exists(base + "fatal")) return null;
        return new RootPortTotals(reads.number(base + "cor", true), reads.number(base + "nonfatal", true), reads.number(base + "fatal", true));
    }

    /** Counted if any function is; else unreadable if any could not be read; else not exposed. */
    static AerState chainState(List<AerFunction> functions) {
        if (functions.stream().anyMatch(f -> f.state() == AerState.COUNTED)) return AerState.COUNTED;
        if (functions.stream().anyMatch(f -> f.state() == AerState.UNREADABLE)) return AerState.UNREADABLE;
        return AerState.NOT_EXPOSED;
    }
}
