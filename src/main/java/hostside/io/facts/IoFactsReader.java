package hostside.io.facts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import hostside.fs.FactReads;
import hostside.fs.FsRoot;
import hostside.fs.Mounts;
import hostside.fs.Mounts.Mount;
import hostside.io.facts.IoFacts.BlockDevice;
import hostside.io.facts.IoFacts.DataDir;
import hostside.io.facts.IoFacts.Nic;
import hostside.io.facts.IoFacts.RdmaDevice;
import hostside.machine.Host;

/**
 * Reads {@link IoFacts} through an {@link FsRoot}: a live machine or a recorded one. Facts only,
 * nothing is measured. Never throws on what it reads: a garbled value becomes null and an
 * "unknown" line naming the file and why.
 */
public final class IoFactsReader {
    /** Block devices that hold no data of their own, listed only when a data dir lies on one. */
    private static final Set<String> SCRATCH_KINDS = Set.of("loop", "ram", "zram");

    private IoFactsReader() {}

    /** Where training data usually is when nobody says: the current folder, $HOME and /tmp. */
    public static List<Path> defaultDataDirs() {
        Set<Path> dirs = new LinkedHashSet<>();
        dirs.add(Path.of("").toAbsolutePath());
        String home = System.getProperty("user.home");
        if (home != null && !home.isBlank()) dirs.add(Path.of(home).toAbsolutePath());
        dirs.add(Path.of("/tmp"));
        return List.copyOf(dirs);
    }

    /**
     * @param host     the machine's facts, read with Module 1's (GPUDirect's driver kind and kernel release)
     * @param dataDirs folders to place on their file systems and disks, in the order to report them
     */
    public static IoFacts read(FsRoot fs, Host host, List<Path> dataDirs) {
        List<String> unknowns = new ArrayList<>();
        FactReads reads = new FactReads(fs, unknowns);
        PciFunctions pci = new PciFunctions(fs, unknowns);
        BlockReader block = new BlockReader(fs, reads, unknowns, pci);

        List<Mount> mounts = Mounts.read(fs);
        if (mounts.isEmpty()) unknowns.add("/proc/self/mountinfo, /proc/self/mounts, /proc/mounts: no mount table");
        DataDirReader dirReader = new DataDirReader(fs, reads, block, mounts);
        List<DataDir> dirs = new ArrayList<>();
        for (Path p : dataDirs) dirs.add(dirReader.read(p));

        List<BlockDevice> devices = new ArrayList<>();
        Set<String> backing = backing(dirs, block);
        for (String name : block.disks()) {
            boolean needed = backing.contains(name);
            if (!needed && SCRATCH_KINDS.stream().anyMatch(name::startsWith)) continue;
            Long size = block.quietSize(name);
            if (!needed && size != null && size == 0) continue; // no medium: an empty drive, an unused nbd
            devices.add(block.read(name));
        }

        List<RdmaDevice> rdma = new RdmaReader(fs, reads, pci).read();
        List<Nic> nics = new NetReader(fs, reads, pci).read(rdma);
        return new IoFacts(dirs, devices, nics, rdma, new GpuDirectReader(fs, host, unknowns).read(), List.copyOf(unknowns));
    }

    /** Every disk a data dir rests on, from the one it is mounted from down to the physical ones. */
    private static Set<String> backing(List<DataDir> dirs, BlockReader block) {
        Set<String> names = new LinkedHashSet<>();
        for (DataDir d : dirs) {
            if (d.blockDevice() == null) continue;
            String disk = block.diskOf(d.blockDevice());
            names.add(disk);
            stack(disk, block, names);
        }
        return names;
    }

    /**
     * The disks below {@code disk}, level by level, as deep as {@link BlockReader#MAX_STACK}: a
     * recording's slaves folders can chain thousands of devices (a recursion one level a device
     * overflowed the stack) or go round; a real dm/md stack is a few levels.
     */
    private static void stack(String disk, BlockReader block, Set<String> names) {
        List<String> level = List.of(disk);
        for (int depth = 0; depth < BlockReader.MAX_STACK && !level.isEmpty(); depth++) {
            List<String> below = new ArrayList<>();
            for (String d : level) {
                for (String s : block.slaves(d)) {
                    String x = block.diskOf(s);
                    if (names.add(x)) below.add(x);
                }
            }
            level = below;
        }
    }
}
