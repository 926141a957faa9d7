package hostside.gpu.nvml;

import static hostside.gpu.nvml.NvmlFunction.*;
import static hostside.gpu.nvml.NvmlTypes.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import hostside.gpu.nvml.FieldBatch.Ask;
import hostside.gpu.nvml.GpuHealth.Link;
import hostside.gpu.nvml.GpuHealth.Pcie;

/**
 * Reads {@link NvmlHealth}: the node's versions, then each GPU in one pass of about 40 calls and
 * one nvmlDeviceGetFieldValues (health.md's timing: 8 GPUs fit in 2 s). The NVLinks are walked
 * before the batch, because NVLink 5's per-link counters are fields of it.
 */
final class NvmlHealthReader {
    private NvmlHealthReader() {}

    static NvmlHealth read(String library) {
        return Nvml.readOnce(library, NvmlHealthReader::read, no -> NvmlHealth.notRun(library, no.why(), no.code(), List.of()), (health, e) -> {
            List<Unread> unread = new ArrayList<>(health.unread());
            unread.add(new Unread("shutdown", e.code(), e.getMessage()));
            return new NvmlHealth(health.library(), health.notRun(), health.notRunCode(), health.driverVersion(),
                    health.nvmlVersion(), health.cudaDriverVersion(), health.gpus(), unread);
        });
    }

    static NvmlHealth read(Nvml nvml) {
        HealthCalls system = new HealthCalls(nvml, MemorySegment.NULL);
        String driver = system.result("driverVersion",
                () -> nvml.getString(SYSTEM_GET_DRIVER_VERSION, NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE));
        String nvmlVersion = system.result("nvmlVersion",
                () -> nvml.getString(SYSTEM_GET_NVML_VERSION, NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE));
        // 13000 -> "13.0", as NVML_CUDA_DRIVER_VERSION_MAJOR/MINOR do
        String cuda = system.result("cudaDriverVersion",
                () -> nvml.getInt(SYSTEM_GET_CUDA_DRIVER_VERSION_V2).map(v -> v / 1000 + "." + v % 1000 / 10));
        Integer count = system.result("gpuCount", () -> nvml.getInt(DEVICE_GET_COUNT_V2));
        List<Unread> unread = system.unread();
        if (count == null) {
            Unread why = unread.getLast();
            return new NvmlHealth(nvml.library(), "NVML cannot count the GPUs (" + why.why() + ")", why.code(), driver, nvmlVersion,
                    cuda, List.of(), unread);
        }
        if (count == 0) {
            return new NvmlHealth(nvml.library(), "no NVIDIA GPU (NVML counts 0)", null, driver, nvmlVersion, cuda, List.of(), unread);
        }
        List<GpuHealth> gpus = new ArrayList<>();
        for (int i = 0; i < count; i++) gpus.add(gpu(nvml, i));
        return new NvmlHealth(nvml.library(), null, null, driver, nvmlVersion, cuda, gpus, unread);
    }

    /** One GPU, every group in turn; a stop (lost, reset required) leaves the rest null. */
    static GpuHealth gpu(Nvml nvml, int index) {
        HealthCalls handle = new HealthCalls(nvml, MemorySegment.NULL);
        MemorySegment dev = handle(handle, index);
        if (dev == null) return new GpuHealth(index, null, null, null, null, null, null, null, null, handle.unread());

        HealthCalls calls = new HealthCalls(nvml, dev);
        String name = calls.result("name", () -> nvml.getString(DEVICE_GET_NAME, NVML_DEVICE_NAME_V2_BUFFER_SIZE, dev));
        String uuid = calls.result("uuid", () -> nvml.getString(DEVICE_GET_UUID, NVML_DEVICE_UUID_V2_BUFFER_SIZE, dev));
        String busId = calls.result("pciBusId", () -> NvmlReader.pciBusId(nvml, DEVICE_GET_PCI_INFO_V3, dev));

        FieldBatch batch = new FieldBatch(calls);
        LinkWalk links = links(calls, batch);
        MemoryHealthReader memory = new MemoryHealthReader(calls, batch);
        StateHealthReader state = new StateHealthReader(calls, batch);
        Ask rollovers = batch.ask("pcie.replayRollovers", NVML_FI_DEV_PCIE_REPLAY_ROLLOVER_COUNTER, 0, FieldBatch.ANY_WHOLE);
        batch.read();

        GpuHealth.Memory mem = memory.read(batch);
        GpuHealth.State st = state.read(batch);
        Pcie pcie = pcie(calls, batch, rollovers);
        List<Link> nvLinks = links.counters(calls, batch);
        NvmlGpu.Fabric fabric = fabric(calls);
        return new GpuHealth(index, name, uuid, busId, mem, st, pcie, nvLinks, fabric, calls.unread());
    }

    private static MemorySegment handle(HealthCalls calls, int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            // a handle is NVML's own pointer, valid until shutdown, so it outlives this Arena
            return calls.call("handle", DEVICE_GET_HANDLE_BY_INDEX_V2, index, out) ? out.get(ADDRESS, 0) : null;
        }
    }

    private static Pcie pcie(HealthCalls calls, FieldBatch batch, Ask rollovers) {
        Integer gen = calls.int32("pcie.gen", DEVICE_GET_CURR_PCIE_LINK_GENERATION);
        Integer width = calls.int32("pcie.width", DEVICE_GET_CURR_PCIE_LINK_WIDTH);
        Integer maxGen = calls.int32("pcie.maxGen", DEVICE_GET_MAX_PCIE_LINK_GENERATION);
        Integer maxWidth = calls.int32("pcie.maxWidth", DEVICE_GET_MAX_PCIE_LINK_WIDTH);
        Integer gpuMaxGen = calls.int32("pcie.gpuMaxGen", DEVICE_GET_GPU_MAX_PCIE_LINK_GENERATION);
        Long replays = calls.uint32("pcie.replays", DEVICE_GET_PCIE_REPLAY_COUNTER);
        Long roll = batch.take(rollovers);
        return MemoryHealthReader.group(new Pcie(gen, width, maxGen, maxWidth, gpuMaxGen, replays, roll),
                gen, width, maxGen, maxWidth, gpuMaxGen, replays, roll);
    }

    /** The fabric as rack reads it; its decoding notes (a state newer than the header) become Unreads of code 0. */
    private static NvmlGpu.Fabric fabric(HealthCalls calls) {
        NvmlReader.Unknowns notes = new NvmlReader.Unknowns();
        NvmlGpu.Fabric f = calls.result("fabric", () -> NvmlRackReader.fabric(calls.nvml, calls.dev, notes));
        for (String line : notes.list) {
            int colon = line.indexOf(": ");
            calls.unknownValue(colon < 0 ? "fabric" : line.substring(0, colon), colon < 0 ? line : line.substring(colon + 2));
        }
        return f;
    }

    /** The links found: each link's state and version, and the NVLink 5 fields asked of the batch for it. */
    record LinkWalk(List<Link> found, List<Ask[]> fields) {
        /** Each active link with its error counters; null when the walk could not start. */
        List<Link> counters(HealthCalls calls, FieldBatch batch) {
            if (found == null) return null;
            List<Link> out = new ArrayList<>();
            for (int i = 0; i < found.size(); i++) {
                Link l = found.get(i);
                Ask[] nvlink5 = fields.get(i);
                if (!l.active()) {
                    out.add(l);
                } else if (nvlink5 != null) {
                    out.add(new Link(l.link(), true, l.versionCode(), null, null, null, null, batch.take(nvlink5[0]), batch.take(nvlink5[1])));
                } else {
                    String at = "nvLinks[" + l.link() + "].";
                    out.add(new Link(l.link(), true, l.versionCode(),
                            calls.uint64(at + "replayErrors", DEVICE_GET_NVLINK_ERROR_COUNTER, l.link(), NVML_NVLINK_ERROR_DL_REPLAY),
                            calls.uint64(at + "recoveryErrors", DEVICE_GET_NVLINK_ERROR_COUNTER, l.link(), NVML_NVLINK_ERROR_DL_RECOVERY),
                            calls.uint64(at + "crcFlitErrors", DEVICE_GET_NVLINK_ERROR_COUNTER, l.link(), NVML_NVLINK_ERROR_DL_CRC_FLIT),
                            calls.uint64(at + "crcDataErrors", DEVICE_GET_NVLINK_ERROR_COUNTER, l.link(), NVML_NVLINK_ERROR_DL_CRC_DATA),
                            null, null));
                }
            }
            return out;
        }
    }

    /**
     * Links 0, 1, ... until INVALID_ARGUMENT, as {@link NvmlReader#nvLinks} walks them (NOT_SUPPORTED
     * at link 0: no NVLink). An active link's nvmlNvlinkVersion_t picks its counters: NVLink 5 and
     * newer answer through fields 221 and 214 ("unsupported for Blackwell+" is nvml.h's word on the
     * error-counter call), older ones through nvmlDeviceGetNvLinkErrorCounter.
     */
    static LinkWalk links(HealthCalls calls, FieldBatch batch) {
        List<Link> found = new ArrayList<>();
        List<Ask[]> fields = new ArrayList<>();
        if (calls.stopped()) return new LinkWalk(null, fields);
        boolean hasVersion = calls.nvml.has(DEVICE_GET_NVLINK_VERSION);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(JAVA_INT);
            for (int link = 0; link < NvmlReader.NVLINK_GUARD && !calls.stopped(); link++) {
                int rc = calls.nvml.call(DEVICE_GET_NVLINK_STATE, calls.dev, link, state);
                if (rc == NVML_ERROR_INVALID_ARGUMENT || rc == NVML_ERROR_NOT_SUPPORTED) return new LinkWalk(found, fields);
                if (!calls.check(link == 0 ? "nvLinks" : "nvLinks[" + link + "]", DEVICE_GET_NVLINK_STATE, rc)) {
                    return new LinkWalk(link == 0 ? null : found, fields);
                }
                boolean active = state.get(JAVA_INT, 0) == NVML_FEATURE_ENABLED;
                Integer version = active && hasVersion
                        ? calls.int32("nvLinks[" + link + "].versionCode", DEVICE_GET_NVLINK_VERSION, link) : null;
                found.add(new Link(link, active, version, null, null, null, null, null, null));
                boolean nvlink5 = version != null && version >= NVML_NVLINK_VERSION_5_0;
                String at = "nvLinks[" + link + "].";
                fields.add(!nvlink5 ? null : new Ask[] {
                        batch.ask(at + "symbolErrors", NVML_FI_DEV_NVLINK_COUNT_SYMBOL_ERRORS, link, FieldBatch.ANY_WHOLE),
                        batch.ask(at + "recoveryFailed", NVML_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_FAILED_EVENTS, link, FieldBatch.ANY_WHOLE)});
            }
        }
        if (!calls.stopped()) calls.unknownValue("nvLinks", "NVML answered for " + NvmlReader.NVLINK_GUARD + " links without an end; stopped there");
        return new LinkWalk(calls.stopped() ? null : found, fields);
    }
}
