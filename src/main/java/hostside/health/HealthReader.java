package hostside.health;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JacksonException;

import hostside.checklist.KernelLog;
import hostside.core.Json;
import hostside.core.Printable;
import hostside.fs.FsRoot;
import hostside.fs.Recorder;
import hostside.gpu.nvml.GpuHealth;
import hostside.gpu.nvml.NvmlHealth;
import hostside.health.host.AerReader;
import hostside.health.host.IbPorts;
import hostside.health.host.IbReader;
import hostside.health.host.RailReader;
import hostside.health.host.SoftwareReader;
import hostside.machine.MachineFacts;
import hostside.machine.PciDevice;
import hostside.machine.PciLink;
import hostside.rack.RackFactsReader;

/**
 * Reads {@link HealthFacts}. On a live machine NVML is asked and its answers are put into the
 * snapshot being recorded, if one is ({@link FsRoot#recordDerived}); on a recording those answers
 * are read back, so a snapshot taken on a GPU node replays its health anywhere.
 */
public final class HealthReader {
    /** Where a snapshot keeps what NVML answered: hostside's own folder, which no machine has. */
    public static final String RECORDED_NVML = Recorder.OWN_FOLDER + "/nvml-health.json";

    private HealthReader() {}

    /**
     * The facts of the machine {@code fs} is; {@code machine} its Module 1 facts (the PCI devices);
     * {@code loadLinks}: read a GPU's link again under load where it sat below its maximum, unless
     * {@code loaded} has it already (Module 1 read it under its copies in the same report).
     */
    public static HealthFacts read(FsRoot fs, MachineFacts machine, boolean loadLinks, Map<String, PciLink> loaded) {
        NvmlHealth nvml = nvml(fs);
        List<DeviceLink> links = machine.pci().stream().filter(d -> d.isGpu() || d.isNic()).map(DeviceLink::of)
                .map(l -> LinkLoad.needsLoad(l) && loaded.containsKey(l.address()) ? l.withLoad(loaded.get(l.address())) : l).toList();
        if (loadLinks) links = LinkLoad.underLoad(fs, links);
        int onBus = (int) machine.pci().stream().filter(d -> d.isGpu() && nvidia(d)).count();
        List<String> gpus = machine.pci().stream().filter(PciDevice::isGpu).map(PciDevice::address).toList();
        List<String> devices = links.stream().map(DeviceLink::address).toList();
        IbPorts ib = IbReader.read(fs);
        return new HealthFacts(nvml, links, AerReader.read(fs, devices), ib, RailReader.read(fs, gpus, ib), SoftwareReader.read(fs),
                RackFactsReader.fabricManager(fs, machine), fs.isLive() ? XidLog.of(KernelLog.read(fs)) : XidLog.notRead(XidLog.RECORDED), onBus, fs.isLive());
    }

    private static boolean nvidia(PciDevice d) {
        return "0x10de".equalsIgnoreCase(d.vendorId());
    }

    /** NVML's answers: asked on a live machine (and recorded), read back on a recording. */
    static NvmlHealth nvml(FsRoot fs) {
        if (!fs.isLive()) return recorded(fs);
        NvmlHealth h = NvmlHealth.read();
        fs.recordDerived(RECORDED_NVML, Json.write(forRecording(h)));
        return h;
    }

    /** What a GPU's UUID becomes in a snapshot: this prefix and 16 hex digits of a hash of it. */
    static final String UUID_STAND_IN = "GPU-hash-";
    private static final String UUID_PREFIX = "hostside GPU UUID\0";

    /**
     * NVML's answers as a snapshot keeps them: a GPU's UUID names one board for its life, as a serial
     * number does, and a snapshot holds no machine identity (docs/snapshot.md). It keeps a stand-in,
     * equal for equal UUIDs, so that GPUs can still be told apart and matched across snapshots.
     */
    public static NvmlHealth forRecording(NvmlHealth h) {
        List<GpuHealth> gpus = h.gpus().stream().map(g -> new GpuHealth(g.index(), g.name(), standIn(g.uuid()), g.pciBusId(), g.memory(), g.state(),
                g.pcie(), g.nvLinks(), g.fabric(), g.unread())).toList();
        return new NvmlHealth(h.library(), h.notRun(), h.notRunCode(), h.driverVersion(), h.nvmlVersion(), h.cudaDriverVersion(), gpus, h.unread());
    }

    static String standIn(String uuid) {
        if (uuid == null) return null;
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(UUID_PREFIX.getBytes(StandardCharsets.UTF_8));
            d.update(uuid.getBytes(StandardCharsets.UTF_8));
            return UUID_STAND_IN + HexFormat.of().formatHex(d.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The answers a snapshot kept; a snapshot without them (older, or garbled) says so, and nothing of the GPUs is judged. */
    static NvmlHealth recorded(FsRoot fs) {
        Optional<String> text = fs.text(RECORDED_NVML);
        if (text.isEmpty()) {
            return notRun("the recording holds no NVML answers (" + RECORDED_NVML + "): made by hostside snapshot before it recorded them,"
                    + " or a folder that is not a snapshot");
        }
        try {
            NvmlHealth h = Json.MAPPER.readValue(text.get(), NvmlHealth.class);
            if (h == null || h.gpus() == null) return notRun(RECORDED_NVML + " in the recording is not NVML's answers");
            return h;
        } catch (JacksonException e) {
            return notRun(RECORDED_NVML + " in the recording could not be read (" + Printable.of(e.getOriginalMessage()) + ")");
        } catch (IllegalArgumentException e) {
            return notRun(RECORDED_NVML + " in the recording could not be read (" + Printable.of(String.valueOf(e.getMessage())) + ")");
        }
    }

    private static NvmlHealth notRun(String why) {
        return new NvmlHealth(null, why, null, null, null, null, List.of(), List.of());
    }
}
