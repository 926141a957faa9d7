package hostside.io.facts;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import hostside.fs.FsRoot;
import hostside.machine.PciDevice;
import hostside.machine.PciReader;

/** Module 1's PCI reader, asked once per function: a NIC and its RDMA device share one. */
final class PciFunctions {
    private final PciReader reader;
    private final Map<String, Optional<PciDevice>> seen = new HashMap<>();

    PciFunctions(FsRoot fs, List<String> unknowns) {
        this.reader = new PciReader(fs, unknowns);
    }

    Optional<PciDevice> at(String address) {
        if (address == null) return Optional.empty();
        return seen.computeIfAbsent(address, reader::function);
    }
}
