package hostside.gpu.nvml;

import java.util.List;

/**
 * What NVML answered about the node's health, in one read: per GPU its memory (ECC, SRAM, row
 * remapping, repair), its state (clock event reasons and the time they held the clocks,
 * temperatures and their limits, power, modes, the recovery action NVML asks for), its PCIe link
 * and replays, its NVLinks' error counters and its fabric. Read live ({@link #read()}) or replayed
 * from a recording: it round-trips through {@code hostside.core.Json}.
 *
 * <p>It draws no conclusion: rules do. Every value NVML did not give is null with an
 * {@link Unread} saying which field and why; a GPU that answered GPU_IS_LOST or RESET_REQUIRED
 * was asked nothing more and carries that one Unread.
 *
 * @param library           the library loaded (a name or a path)
 * @param notRun            why no GPU was read (no driver, NVML would not start, no GPU); null when read
 * @param notRunCode        the nvmlReturn_t behind {@code notRun}, where there is one
 * @param driverVersion     nvmlSystemGetDriverVersion, "580.159.04"
 * @param nvmlVersion       nvmlSystemGetNVMLVersion
 * @param cudaDriverVersion nvmlSystemGetCudaDriverVersion_v2 as "13.0"
 * @param gpus              one entry per GPU NVML counts, in NVML's order
 * @param unread            the node-level values NVML did not give
 */
public record NvmlHealth(String library, String notRun, Integer notRunCode, String driverVersion, String nvmlVersion,
                         String cudaDriverVersion, List<GpuHealth> gpus, List<Unread> unread) {

    public NvmlHealth {
        gpus = List.copyOf(gpus);
        unread = List.copyOf(unread);
    }

    /** Reads through the library {@link Nvml#defaultLibrary()} names; never throws for the machine's sake. */
    public static NvmlHealth read() {
        return read(Nvml.defaultLibrary());
    }

    /** Opens {@code library}, reads every GPU, shuts NVML down. */
    public static NvmlHealth read(String library) {
        return NvmlHealthReader.read(library);
    }

    /** Reads from an open binding, which stays open. */
    static NvmlHealth read(Nvml nvml) {
        return NvmlHealthReader.read(nvml);
    }

    /** Nothing read: the library would not load or start, or there is no GPU. */
    static NvmlHealth notRun(String library, String why, Integer code, List<Unread> unread) {
        return new NvmlHealth(library, why, code, null, null, null, List.of(), unread);
    }
}
