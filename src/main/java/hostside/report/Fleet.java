package hostside.report;

import java.util.List;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;

import hostside.fs.FsRoot;
import hostside.gpu.cuda.CudaFacts;
import hostside.gpu.nvml.ClockLock;
import hostside.machine.GpuMatrix;
import hostside.machine.MachineRun;
import hostside.machine.PciDevice;
import hostside.machine.PciLink;
import hostside.machine.PeerPath;
import hostside.process.LoadAvg;
import hostside.process.MachineLoad;
import hostside.report.platforms.HostLink;
import hostside.report.platforms.Nics;

/**
 * What a fleet groups reports by, and what makes two reports' figures unfair to compare
 * (docs/contract.md, Reports): the hardware class, the software, and the confounders at the
 * start of the run. Each is derived from the facts the drills read, as short stable words, never
 * prose: a fleet's {@code compare} puts machines of one class side by side.
 */
public final class Fleet {
    private Fleet() {}

    /**
     * The hardware, as a fleet groups it.
     *
     * @param gpu      the GPUs' model ("NVIDIA H200"); several models joined with " + "; "none"
     * @param gpuCount GPUs in the box
     * @param cpuModel the CPU's model name
     * @param cores    cores (with at least one online CPU)
     * @param hostLink how host memory reaches the GPUs, {@link HostLink}'s words: pcie-genN-xW at the link's
     *                 maximum, c2c (NVLink-C2C: the GPU uses the CPU's page tables), integrated, none; "unknown".
     *                 Words, not the record, while the report's document prints them as they are; {@link #link()} is the record
     * @param fabric   how far the fast GPU-to-GPU domain reaches: none, pcie-p2p, nvlink-pairs,
     *                 nvswitch-N (N GPUs behind NVSwitches)
     * @param nics     the NICs by count, speed and RDMA, written "2x400g-rdma", "1xunknown", "none"
     * @param pageSize the base page in bytes; null when not read
     */
    public record HardwareClass(String gpu, int gpuCount, String cpuModel, int cores, String hostLink, String fabric, Nics nics,
                                Long pageSize) {
        public HardwareClass {
            // words the codec would refuse are refused here, as the class is made or read: a link is placed by its record alone
            HostLink.parse(hostLink);
        }

        public HardwareClass(String gpu, int gpuCount, String cpuModel, int cores, HostLink hostLink, String fabric, Nics nics, Long pageSize) {
            this(gpu, gpuCount, cpuModel, cores, hostLink.toString(), fabric, nics, pageSize);
        }

        /** The host link as its record; null where the class does not say. */
        public HostLink link() {
            return HostLink.parse(hostLink);
        }
    }

    /** @param driver the NVIDIA driver ("" when none is loaded); @param cuda the CUDA version it implements, null when not read */
    public record Software(String driver, String cuda, String kernel) {}

    /**
     * What was true when the run started that moves figures: two figures taken under different
     * confounders are not a fair comparison.
     *
     * @param clocksLocked  GPU clocks locked or capped by an administrator ({@link ClockLock}: false means no
     *                      sign of it, as NVML cannot read an {@code nvidia-smi -lgc} lock directly); null when
     *                      not read (no GPU, no NVML, a recording)
     * @param numaBalancing kernel.numa_balancing: 0 off, 1 on, 2 tiering, 3 both; null when not read
     * @param thp           transparent huge pages' enabled setting ("always", "madvise", "never"); null when not read
     * @param loadAtStart   the 1-minute load average as the run started; null when not read
     * @param drillLoads    how busy the machine was just before each drill measured, in the order they ran
     *                      ({@link MachineLoad}); empty for a recording (nothing measured),
     *                      null in a report written before they were read
     * @param mode          "full", or "quick" for {@code report --quick} (the headline figures only, a smaller
     *                      test file); null in a report written before the mode was recorded (a full one)
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Confounders(Boolean clocksLocked, Integer numaBalancing, String thp, Double loadAtStart, List<DrillLoad> drillLoads,
                              String mode) {
        /** The contract's four, without the loads of the drills. */
        public Confounders(Boolean clocksLocked, Integer numaBalancing, String thp, Double loadAtStart) {
            this(clocksLocked, numaBalancing, thp, loadAtStart, null, null);
        }

        public Confounders(Boolean clocksLocked, Integer numaBalancing, String thp, Double loadAtStart, List<DrillLoad> drillLoads) {
            this(clocksLocked, numaBalancing, thp, loadAtStart, drillLoads, null);
        }

        /** The report's mode, a report from before it was recorded being a full one. */
        public String modeOrFull() {
            return mode == null ? "full" : mode;
        }

        /** The drills the machine was busy before, in order; none when their loads were not read. */
        public List<String> busyDrills() {
            return drillLoads == null ? List.of() : drillLoads.stream().filter(d -> d.load() != null && d.load().busy()).map(DrillLoad::drill).toList();
        }

        /** What made the machine busy as {@code drill} began, a phrase each; none where it was quiet or not read. */
        public List<String> busyReasons(String drill) {
            return drillLoads == null ? List.of() : drillLoads.stream().filter(d -> d != null && drill.equals(d.drill()))
                    .flatMap(d -> MachineLoad.busyReasons(d.load()).stream()).toList();
        }
    }

    /**
     * The load before one drill of the report.
     *
     * @param drill the drill, as its command names it: machine, vm, cpu, io
     * @param load  what the window before it measured
     */
    public record DrillLoad(String drill, MachineLoad load) {}

    /** The GPUs' clock settings as NVML read them for Module 1; unknown where NVML was not asked. */
    public static ClockLock clockLock(MachineRun run) {
        return run.gpu() == null || run.gpu().nvml() == null ? ClockLock.of(List.of()) : ClockLock.of(run.gpu().nvml().gpus());
    }

    public static HardwareClass hardwareClass(MachineRun run, Long pageSize) {
        List<PciDevice> gpus = run.facts().gpus();
        String models = gpus.isEmpty() ? "none" : gpus.stream().map(g -> g.description().isEmpty() ? g.deviceId() : g.description())
                .distinct().collect(Collectors.joining(" + "));
        var t = run.facts().topology();
        return new HardwareClass(models, gpus.size(), t.cpuModel(), t.cores(), hostLink(run), fabric(run.gpuMatrix(), gpus.size()),
                nics(run.facts().nics()), pageSize);
    }

    /** The first GPU's link, as the class names it; coherent (ATS) and integrated GPUs by what they are. */
    static HostLink hostLink(MachineRun run) {
        List<PciDevice> gpus = run.facts().gpus();
        if (gpus.isEmpty()) return HostLink.NONE;
        CudaFacts cuda = run.gpu().cuda();
        if (cuda != null && !cuda.gpus().isEmpty()) {
            CudaFacts.CudaGpu g = cuda.gpus().getFirst();
            boolean integrated = g.attributes().stream().anyMatch(a -> a.name().equals("integrated") && Integer.valueOf(1).equals(a.value()));
            if (integrated) return HostLink.INTEGRATED;
            if ("ATS".equals(g.coherence())) return HostLink.C2C;
        }
        PciLink l = gpus.getFirst().link();
        if (l == null || l.maxSpeedGTs() == null || l.maxWidth() == null || l.maxWidth() < 1) return HostLink.UNKNOWN;
        return HostLink.pcie(l.maxSpeedGTs(), l.maxWidth());
    }

    static String fabric(GpuMatrix m, int gpus) {
        if (gpus < 2 || m.pairs().isEmpty()) return "none";
        boolean allSwitched = m.pairs().stream().allMatch(p -> p.nvlink() && p.via().contains("NVSwitch"));
        if (allSwitched) return "nvswitch-" + gpus;
        if (m.pairs().stream().anyMatch(GpuMatrix.Pair::nvlink)) return "nvlink-pairs";
        boolean peers = !m.peers().isEmpty() && m.peers().stream().noneMatch(PeerPath::blocked);
        return peers ? "pcie-p2p" : "none";
    }

    static Nics nics(List<PciDevice> nics) {
        return Nics.of(nics);
    }

    public static Software software(MachineRun run) {
        var h = run.facts().host();
        String cuda = run.gpu().cuda() != null ? run.gpu().cuda().cudaVersion()
                : run.gpu().nvml() != null && run.gpu().nvml().ran() ? run.gpu().nvml().cudaDriverVersion() : null;
        return new Software(h.nvidiaDriver(), cuda, h.kernel());
    }

    /** The 1-minute load in /proc/loadavg ("0.30 0.25 0.20 1/345 6789"); null when unreadable or garbled. */
    public static Double loadAverage(FsRoot fs) {
        return LoadAvg.read(fs).map(LoadAvg::one).orElse(null);
    }
}
