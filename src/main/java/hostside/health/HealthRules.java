package hostside.health;

import static hostside.core.Severity.BAD;
import static hostside.core.Severity.INFO;
import static hostside.core.Severity.UNKNOWN;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Source;

/**
 * The node-health checks, one rule each, as DCGM's health watches, gpud's components and the
 * NHC suites check a node before a job lands on it. Module 6's day-one checklist: run on every
 * node, the rule that fires names the straggler and its cause. The conditions are in
 * {@link GpuChecks}, {@link HostChecks} and {@link XidChecks}; what is read is {@link HealthFacts}.
 */
public final class HealthRules {
    private HealthRules() {}

    static final Source DCGM_HEALTH = Source.source("NVIDIA/DCGM modules/health/DcgmHealthWatch.cpp at 1f7a418e: MonitorMemVolatileDbes"
            + " FAILs on any volatile double-bit error, MonitorMemRowRemapFailures on the row-remap failure flag, MonitorMemRetiredPending"
            + " WARNs on pages pending retirement, MonitorMemSbeDbeRetiredPages FAILs at DCGM_LIMIT_MAX_RETIRED_PAGES (63) retired pages;"
            + " MonitorPcie WARNs above ceil(lanes x 1e-12 x the lane rate x 60) replays a minute; MonitorThermal/MonitorPower WARN on any"
            + " thermal/power violation time");
    static final Source DCGM_LIMITS = Source.source("NVIDIA/DCGM common/DcgmGPUHardwareLimits.h at 28bfbd4c: DCGM_LIMIT_MAX_RETIRED_PAGES 63,"
            + " DCGM_LIMIT_MAX_NVLINK_ERROR 1, DCGM_LIMIT_MAX_NVLINK_CRC_ERROR 100 per second (\"RM has informed us that CRC errors only matter"
            + " at rates of 100+ per second\")");
    static final Source NV_MEMORY_FLAGS = Source.document("NVIDIA GPU Memory Error Management, Error Recovery and Response Flags"
            + " (docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt/error-recovery-and-response-flags.html): the row-remapping pending flag means"
            + " the remap happens at the next GPU reset and unaffected applications keep running; the failure flag meets the RMA policy;"
            + " the recovery action says None, Reset (nvidia-smi -r), Reboot, Drain P2P or Drain and Reset");
    static final Source NVML_REMAP = Source.document("NVML API Reference, nvmlDeviceGetRemappedRows and nvmlDeviceGetRowRemapperHistogram:"
            + " \"A reset will be required to actually remap the row\"; failureOccurred \"will be set if a row remapping ever failed in the"
            + " past\"; the histogram counts memory banks by the spare rows they have left (max: all, none: no spare row)");
    static final Source NVML_ECC = Source.document("NVML API Reference, nvmlDeviceGetTotalEccErrors and nvmlDeviceGetEccMode: volatile counts"
            + " are reset each time the driver loads, aggregate ones persist for the life of the board; the pending ECC mode takes effect"
            + " at the next reboot");
    static final Source NVML_STATE = Source.document("NVML API Reference: nvmlDeviceGetCurrentClocksEventReasons (HW slowdown, HW thermal"
            + " slowdown, HW power brake: the hardware holding the clocks down), nvmlDeviceGetPersistenceMode, nvmlDeviceGetComputeMode"
            + " (PROHIBITED: no compute context may be created), nvmlDeviceGetMigMode (the pending mode applies at the next GPU reset),"
            + " nvmlDeviceGetEnforcedPowerLimit (the limit after every limiter) and nvmlDeviceGetPowerManagementDefaultLimit");
    static final Source NVML_RETURNS = Source.document("NVML API Reference, nvmlReturn_t: NVML_ERROR_GPU_IS_LOST \"The GPU has fallen off the"
            + " bus or has otherwise become inaccessible\", NVML_ERROR_RESET_REQUIRED \"The GPU requires a reset before it can be used again\","
            + " NVML_ERROR_LIB_RM_VERSION_MISMATCH \"RM detects a driver/library version mismatch\"");
    static final Source GPUD_PERSISTENCE = Source.source("leptonai/gpud components/accelerator/nvidia/persistence-mode/component.go at 4a8de33:"
            + " persistence mode supported but not enabled is unhealthy");
    static final Source KERNEL_AER = Source.document("Linux Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats: aer_dev_correctable,"
            + " aer_dev_nonfatal and aer_dev_fatal count the errors a device saw or reported since boot; a root port counts what its"
            + " hierarchy reported in aer_rootport_total_err_*");
    static final Source PCIE_DOWNTRAIN = Source.document("nvidia-smi --help-query-gpu, pcie.link.gen.current and pcie.link.width.current:"
            + " \"The current link generation and width. These may be reduced when the GPU is not in use.\"");
    static final Source KERNEL_IB = Source.document("Linux Documentation/ABI/stable/sysfs-class-infiniband: a port's state (DOWN, INIT,"
            + " ARMED, ACTIVE), phys_state (Polling, LinkUp, Disabled, ...), rate, and counters/ (link_downed: times the link went down,"
            + " symbol_error, link_error_recovery, port_rcv_errors ...)");
    static final Source NV_DRIVER_FM = Source.document("NVIDIA Fabric Manager User Guide (docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide),"
            + " Installation: the Fabric Manager package version must match the installed NVIDIA driver's");

    // ---- GPU memory ----

    public static final Rule ECC_MODE = Rule.of("M6-HEALTH-ECC-MODE", "ECC off, or an ECC mode change waiting for a reboot", EnumSet.of(WARN, INFO),
            "with ECC off a bit flip in GPU memory silently corrupts weights or activations instead of stopping the job, and none of the"
                    + " memory counters below are kept",
            "turn it on: nvidia-smi -i GPU -e 1, then reboot (the mode changes at the next boot)", NVML_ECC);

    public static final Rule ECC_UNCORRECTED = Rule.of("M6-HEALTH-ECC-UNCORRECTED", "uncorrectable ECC errors since the driver loaded",
            EnumSet.of(BAD, INFO),
            "an uncorrectable error killed the process that used that memory (Xid 48/94/95); the GPU may keep failing jobs until it is reset"
                    + " and its rows remapped. Counts from before the driver loaded (aggregate only) are history: info",
            "drain the node, reset the GPU (nvidia-smi -r -i GPU) or reboot, then check the remapped rows; repeated errors after that mean an RMA",
            DCGM_HEALTH, NVML_ECC);

    public static final Rule SRAM = Rule.of("M6-HEALTH-SRAM", "SRAM ECC errors past NVIDIA's threshold, or uncorrectable SRAM errors",
            EnumSet.of(BAD, WARN),
            "on-chip memory (L2, register files) cannot be remapped as DRAM rows can: past the threshold the GPU is due for replacement;"
                    + " uncorrectable SRAM errors below it stopped the work that hit them",
            "drain the node and run the field diagnostic (dcgmi diag -r 3); a GPU past the SRAM threshold goes to RMA",
            Source.document("NVML API Reference, nvmlEccSramErrorStatus_v1_t: bThresholdExceeded, \"the error threshold of field diag is"
                    + " exceeded\"; aggregate uncorrectable counts by unit (L2, SM, PCIe, microcontroller, other)"),
            Source.reasoned("warn on any uncorrectable SRAM error below the threshold: it stopped work, but NVIDIA's RMA rule for SRAM is"
                    + " the threshold flag"));

    public static final Rule RETIRED_PAGES = Rule.of("M6-HEALTH-RETIRED-PAGES", "retired GPU memory pages at DCGM's limit, or pages pending retirement",
            EnumSet.of(BAD, WARN),
            "GPUs before Ampere retire pages instead of remapping rows: a page pending retirement is still mapped until the driver reloads,"
                    + " and at 63 retired pages the GPU is worn out",
            "pending: drain and reboot (or reload the driver) to retire them; at the limit: replace the GPU", DCGM_HEALTH, DCGM_LIMITS);

    public static final Rule ROW_REMAP_PENDING = Rule.of("M6-HEALTH-ROW-REMAP-PENDING", "a row remap waiting for a GPU reset", EnumSet.of(WARN),
            "an uncorrectable error was contained and its row marked for remapping; running jobs are safe, but the row is only replaced at"
                    + " the next GPU reset, and until then the memory is not fully usable",
            "drain the node and reset the GPU when its jobs end: nvidia-smi -r -i GPU (or reboot)", NV_MEMORY_FLAGS, NVML_REMAP);

    public static final Rule ROW_REMAP_FAILED = Rule.of("M6-HEALTH-ROW-REMAP-FAILED", "a row remapping failed: the GPU meets NVIDIA's RMA policy",
            EnumSet.of(BAD),
            "a failing row could not be replaced by a spare: the next uncorrectable error there kills jobs again, and no reset cures it",
            "drain the node, confirm with the field diagnostic (dcgmi diag -r 3) and RMA the GPU", NV_MEMORY_FLAGS, DCGM_HEALTH, NVML_REMAP);

    public static final Rule REMAP_BANKS = Rule.of("M6-HEALTH-REMAP-BANKS", "memory banks with no spare row left", EnumSet.of(WARN),
            "the next uncorrectable error in such a bank cannot be remapped: it becomes a remapping failure and an RMA",
            "plan the GPU's replacement and watch its remapped rows", NVML_REMAP,
            Source.reasoned("a bank in the histogram's \"none\" column has no spare row, so its next remap fails by definition"));

    public static final Rule UNREPAIRABLE = Rule.of("M6-HEALTH-UNREPAIRABLE", "GPU memory NVIDIA flags as unrepairable", EnumSet.of(BAD),
            "the memory has faults that neither remapping nor repair can fix: jobs on it will keep failing",
            "drain the node and RMA the GPU",
            Source.document("NVML API Reference, nvmlDeviceGetUnrepairableMemoryFlag_v1: bUnrepairableMemory, set when the GPU's memory"
                    + " cannot be repaired"));

    // ---- GPU state ----

    public static final Rule GPU_LOST = Rule.of("M6-HEALTH-GPU-LOST", "a GPU NVML cannot reach, or that needs a reset", EnumSet.of(BAD),
            "a GPU that fell off the bus (Xid 79) or that needs a reset runs no work: every job placed on it fails at start",
            "drain the node; reset the GPU (nvidia-smi -r -i GPU) or reboot; if it falls off again, check its seating, power and riser",
            NVML_RETURNS);

    public static final Rule RECOVERY_ACTION = Rule.of("M6-HEALTH-RECOVERY-ACTION", "the driver asks for a GPU reset, a reboot or a drain",
            EnumSet.of(BAD, WARN),
            "after an uncorrectable error the driver says what brings the GPU back; until it is done the GPU (or its peers, for Drain P2P)"
                    + " fails or slows the work placed on it",
            "do what it names: Reset: stop the GPU's processes and nvidia-smi -r; Reboot: reboot the node; Drain P2P: let jobs end, then"
                    + " reset; Drain and Reset: drain, then reset",
            NV_MEMORY_FLAGS);

    public static final Rule DRIVER = Rule.of("M6-HEALTH-DRIVER", "the NVIDIA driver not loaded, or its library and kernel module differ",
            EnumSet.of(BAD),
            "no CUDA program can start on the node: a driver updated without a reboot leaves the old kernel module beside the new library",
            "reboot the node (or unload and reload the nvidia modules) so that the module matches the library", NVML_RETURNS);

    public static final Rule CLOCK_SLOWDOWN = Rule.of("M6-HEALTH-CLOCK-SLOWDOWN", "the hardware holding the GPU's clocks down: HW slowdown,"
                    + " thermal or power brake", EnumSet.of(BAD, WARN, INFO),
            "a GPU in HW slowdown runs at a fraction of its clock, and in a synchronous job every GPU waits for it: the whole job runs at"
                    + " the slowed GPU's pace",
            "check its cooling (fans, inlet temperature, airflow) and power (the PSUs, the power brake signal); nvidia-smi -q -d PERFORMANCE"
                    + " shows the reasons; a GPU that keeps slowing down goes to the vendor",
            NVML_STATE, DCGM_HEALTH, Source.reasoned("HW thermal slowdown or power brake active now: bad (the GPU protects itself);"
                    + " HW slowdown alone: warn (NVML says it may also show during a P-state or clock change); time spent in them since the"
                    + " driver loaded, none now: info"));

    public static final Rule TEMPERATURE = Rule.of("M6-HEALTH-TEMPERATURE", "a GPU at or near its slowdown temperature", EnumSet.of(BAD, WARN),
            "at the slowdown temperature the GPU lowers its clocks, and the job runs at its pace",
            "check the node's cooling: fans, inlet temperature, blanking panels; compare with its neighbours' temperatures",
            Source.document("NVML API Reference, nvmlDeviceGetMarginTemperature: the distance to the nearest slowdown threshold, and"
                    + " nvmlDeviceGetTemperatureThreshold (SLOWDOWN, SHUTDOWN)"),
            Source.reasoned("bad at or past the slowdown threshold (the clocks are lowered now); warn within 5 C of it at rest, since a"
                    + " training step adds more than that"));

    public static final Rule POWER_CAPPED = Rule.of("M6-HEALTH-POWER-CAPPED", "a power limit below the board's default", EnumSet.of(WARN),
            "a lower power limit lowers the clocks under load: this GPU finishes each step later than its peers, and the job waits for it",
            "restore it: nvidia-smi -i GPU -pl <default watts>, or find who set it (a BMC or datacenter power capping, nvidia-smi -q -d POWER)",
            NVML_STATE, Source.reasoned("a limit below the default, wherever it comes from, caps the clocks a training step reaches"));

    public static final Rule PERSISTENCE = Rule.of("M6-HEALTH-PERSISTENCE", "persistence mode off", EnumSet.of(WARN),
            "without persistence the driver tears the GPU down when its last process ends: every job start pays the initialisation again"
                    + " (seconds per GPU), and state such as clocks set by the administrator is lost",
            "run nvidia-persistenced as a service (systemctl enable --now nvidia-persistenced); nvidia-smi -pm 1 is deprecated",
            GPUD_PERSISTENCE, NVML_STATE);

    public static final Rule COMPUTE_MODE = Rule.of("M6-HEALTH-COMPUTE-MODE", "a compute mode that refuses or limits CUDA contexts",
            EnumSet.of(BAD, INFO),
            "Prohibited: no CUDA context can be created, every job fails at start; Exclusive Process: one process per GPU, so a second"
                    + " process (a DataLoader worker touching CUDA, a profiler) fails",
            "nvidia-smi -i GPU -c DEFAULT, unless the scheduler sets it on purpose", NVML_STATE);

    public static final Rule MIG_PENDING = Rule.of("M6-HEALTH-MIG-PENDING", "a MIG mode change waiting for a GPU reset", EnumSet.of(WARN),
            "the GPU runs in the old mode until it is reset: a job expecting the whole GPU (or its MIG instances) finds the other",
            "reset the GPU (nvidia-smi -r -i GPU) once its processes have ended", NVML_STATE);

    public static final Rule PCIE_REPLAYS = Rule.of("M6-HEALTH-PCIE-REPLAYS", "PCIe replays counted by the GPU", EnumSet.of(WARN, INFO),
            "a replay resends a packet the link corrupted: a few are normal, many mean a marginal link (riser, slot, cable) that slows every"
                    + " host-device copy and may drop the GPU off the bus",
            "read it again later: a count that grows by more than DCGM's rate (Gen5 x16: 31 a minute) points at the slot or riser; reseat or"
                    + " move the GPU",
            DCGM_HEALTH, Source.reasoned("one reading gives no rate: a count above zero is reported, and warned where it exceeds a minute of"
                    + " DCGM's rate, since it needed at least that much trouble to get there"));

    public static final Rule XID = Rule.of("M6-HEALTH-XID", "Xid errors of the GPU's own in the kernel log since boot", EnumSet.of(BAD, WARN, INFO, UNKNOWN),
            "an Xid the catalog blames on the GPU (ECC, fallen off the bus, NVLink, GSP) within the last hour means the GPU is failing work"
                    + " now; an older one may have been cured by a reset. Application Xids are the program's (info)",
            "look at the Xid's resolution in NVIDIA's catalog (reset, reboot or RMA); dmesg -T | grep Xid shows them with their time",
            Source.document("NVIDIA Xid Errors (docs.nvidia.com/deploy/xid-errors), the Xid catalog: each Xid's meaning and resolution bucket"),
            Source.reasoned("bad within the hour (as hostside checklist judges them), warn before that: the kernel log is all there is of it"));

    // ---- NVLink ----

    public static final Rule NVLINK_DOWN = Rule.of("M6-HEALTH-NVLINK-DOWN", "an NVLink of a GPU that has NVLink, inactive", EnumSet.of(BAD, WARN),
            "traffic meant for that link takes the others (less bandwidth) or PCIe; NCCL's rings and trees slow for the whole job",
            "reset the GPU or reboot; if it stays down, check the fabric manager's log and the baseboard (an RMA)",
            Source.source("NVIDIA/DCGM modules/health/DcgmHealthWatch.cpp at 1f7a418e: MonitorNVLink FAILs a GPU with a link whose state is"
                    + " DOWN"),
            Source.reasoned("a GPU with some links active and some not has lost links it was built with: bad; one with none active may"
                    + " have been built without its bridge or fabric: warn"));

    public static final Rule NVLINK_ERRORS = Rule.of("M6-HEALTH-NVLINK-ERRORS", "NVLink errors counted since the driver loaded", EnumSet.of(WARN, INFO),
            "replays and recoveries retrain the link and stall the traffic on it; CRC errors are retried transparently and matter only at"
                    + " 100 a second and more",
            "watch the count: one that grows between two runs points at the link; reset the GPU and, if it keeps growing, check the baseboard",
            Source.source("NVIDIA/DCGM modules/health/DcgmHealthWatch.cpp at 1f7a418e: MonitorNVLink FAILs on any replay or recovery"
                    + " error within its minute, and on CRC errors only at DCGM_LIMIT_MAX_NVLINK_CRC_ERROR (100) a second"), DCGM_LIMITS,
            Source.reasoned("one reading gives no rate: replays, recoveries (and NVLink 5's symbol errors and failed recoveries) since the"
                    + " driver loaded are warned, CRC errors reported"));

    public static final Rule FABRIC = Rule.of("M6-HEALTH-FABRIC", "a GPU whose NVLink fabric registration did not complete, or completed unhealthy",
            EnumSet.of(BAD, WARN),
            "on an NVSwitch or multi-node NVLink system a GPU can run CUDA only once the fabric manager has registered it: until then cuInit"
                    + " fails with 802 \"system not yet initialized\"; a registration that completed with an error or an unhealthy fabric leaves"
                    + " NVLink traffic failing or slowed; limited capacity means fewer links or switches than built",
            "check the fabric manager (systemctl status nvidia-fabricmanager; journalctl -u nvidia-fabricmanager), or on NVL72 racks the"
                    + " switch trays' NVOS; nvidia-smi -q -d FABRIC shows each GPU's state and health",
            Source.document("NVML API Reference, nvmlDeviceGetGpuFabricInfoV: state NOT_SUPPORTED, NOT_STARTED, IN_PROGRESS, COMPLETED;"
                    + " status, the registration's nvmlReturn_t once completed; healthSummary HEALTHY, UNHEALTHY, LIMITED_CAPACITY (v3)"),
            Source.thread("NVIDIA/NVSentinel#889: the fabric state stayed \"in progress\" while the fabric manager was down for 20 days"));

    public static final Rule FABRIC_MANAGER = Rule.of("M6-HEALTH-FABRIC-MANAGER", "NVSwitches without a matching fabric manager", EnumSet.of(BAD, WARN),
            "on an NVSwitch board the GPUs cannot use NVLink until the fabric manager has programmed the switches: CUDA fails with"
                    + " \"system not yet initialized\"; a fabric manager of another version than the driver refuses to start",
            "install nvidia-fabricmanager of exactly the driver's version and enable it: systemctl enable --now nvidia-fabricmanager",
            NV_DRIVER_FM);

    // ---- PCIe ----

    public static final Rule PCIE_LINK = Rule.of("M6-HEALTH-PCIE-LINK", "a GPU or NIC link below its maximum speed or width", EnumSet.of(BAD, WARN, INFO),
            "a link trained down under load moves host-device copies and network traffic at a fraction of their speed; an idle GPU lowers"
                    + " its link on purpose to save power, which is no fault",
            "reseat the card or its riser, check the slot's BIOS setting (Gen/bifurcation); a link that stays down goes to the vendor",
            PCIE_DOWNTRAIN, Source.reasoned("below its maximum while copies run: bad; a NIC (which does not lower its link at rest) below its"
                    + " maximum: warn; a GPU below its maximum at rest: info"));

    public static final Rule AER = Rule.of("M6-HEALTH-AER", "PCIe errors the kernel's AER counted on a GPU's or NIC's path", EnumSet.of(BAD, INFO),
            "an uncorrectable (fatal or non-fatal) error on the path loses a transaction: the device may fall off the bus or its driver"
                    + " reset it; correctable errors are retried at a cost",
            "drain the node and reseat the device or its riser; dmesg | grep -i aer names the device and the error",
            KERNEL_AER, Source.reasoned("fatal or non-fatal errors since boot: bad; correctable ones: info, since one reading gives no"
                    + " rate; no AER files (a VM, AER off): info, saying the errors are not visible here, never taken as none"));

    // ---- networks ----

    public static final Rule IB_PORT = Rule.of("M6-HEALTH-IB-PORT", "an InfiniBand/RoCE port not active, or slower than its peers",
            EnumSet.of(BAD, WARN),
            "a down port takes its rail out of NCCL's rings (the job falls back to the other rails or fails to start); a port at a lower"
                    + " rate than its peers slows every collective to its pace",
            "check the cable and the switch port (ibstat, ibportstate); a port that trained at a lower rate: reseat or replace the cable",
            KERNEL_IB, Source.reasoned("a port whose physical link is up but not active, or down with a link partner present, is bad; a"
                    + " port below the highest rate of the node's ports of the same link layer is warned"));

    public static final Rule IB_ERRORS = Rule.of("M6-HEALTH-IB-ERRORS", "InfiniBand port error counters above zero", EnumSet.of(WARN, INFO),
            "link_downed counts the link going down (a flapping cable); symbol and receive errors mean a marginal cable or transceiver that"
                    + " forces retransmissions",
            "clear and watch (perfquery -x -R); a count that grows: reseat or replace the cable or transceiver",
            KERNEL_IB, Source.reasoned("one reading gives no rate: link_downed above zero is warned (the link went down at least once since"
                    + " the counters were cleared), other error counters are reported"));

    public static final Rule RAIL = Rule.of("M6-HEALTH-RAIL", "a GPU whose nearest RDMA NIC is across the CPU interconnect", EnumSet.of(WARN),
            "GPUDirect RDMA between a GPU and a NIC on another socket or host bridge goes through the CPU (or is turned off by NCCL): that"
                    + " GPU's inter-node traffic runs at a fraction of the rail's rate",
            "use the GPU's local NIC (NCCL_IB_HCA, or a topology file); if none is local, the node's wiring has one rail fewer",
            Source.document("nvidia-smi topo -m legend: PIX/PXB (through PCIe switches), PHB (through a host bridge), NODE (across host"
                    + " bridges of one NUMA node), SYS (across the SMP interconnect)"),
            Source.reasoned("a GPU whose nearest NIC is NODE or SYS has no NIC of its own"));

    // ---- software ----

    public static final Rule SOFTWARE = Rule.of("M6-HEALTH-SOFTWARE", "NVIDIA software versions that must match and do not", EnumSet.of(BAD, WARN, INFO),
            "a library of another version than the kernel module stops every CUDA program (\"driver/library version mismatch\"); several"
                    + " NCCL versions on one node make jobs behave differently depending on which is loaded first",
            "install the packages of one release (driver, libnvidia-compute, fabric manager); keep one NCCL per environment",
            NV_DRIVER_FM, NVML_RETURNS);

    public static final Rule OPEN_MODULE = Rule.of("M6-HEALTH-OPEN-MODULE", "the proprietary kernel module on a GPU that needs the open one",
            EnumSet.of(BAD, INFO),
            "Blackwell and newer GPUs run only with NVIDIA's open kernel module; on older ones the open module is what DMA-BUF (and"
                    + " GPUDirect RDMA without nvidia-peermem) relies on",
            "install the driver's open flavour (nvidia-open, or the .run installer's -m=kernel-open)",
            Source.document("NVIDIA driver README 560.35.03, Open Linux Kernel Modules (download.nvidia.com/XFree86/Linux-x86_64/560.35.03/"
                    + "README/kernel_open.html): the open modules are required on GPUs of the Blackwell architecture and later"));

    public static final Rule NOT_JUDGED = Rule.of("M6-HEALTH-NOT-JUDGED", "health that could not be read", EnumSet.of(UNKNOWN, INFO),
            "a check that could not read its facts passes nothing: the node is not known healthy in that respect",
            "", Source.reasoned("what was not read is said, never taken as clean: unknown on a live machine (run as root, or see why NVML"
                    + " refused), information on a recording that does not hold NVML's answers (nothing to run again there)"));

    /** The IDs every health rule's begins with. */
    public static final String PREFIX = "M6-HEALTH-";

    /** Whether {@code id} is a node-health rule's: what compare names as a probable cause. */
    public static boolean isHealth(String id) {
        return id != null && id.startsWith(PREFIX);
    }

    public static List<Rule> all() {
        return List.of(ECC_MODE, ECC_UNCORRECTED, SRAM, RETIRED_PAGES, ROW_REMAP_PENDING, ROW_REMAP_FAILED, REMAP_BANKS, UNREPAIRABLE,
                GPU_LOST, RECOVERY_ACTION, DRIVER, CLOCK_SLOWDOWN, TEMPERATURE, POWER_CAPPED, PERSISTENCE, COMPUTE_MODE, MIG_PENDING,
                PCIE_REPLAYS, XID, NVLINK_DOWN, NVLINK_ERRORS, FABRIC, FABRIC_MANAGER, PCIE_LINK, AER, IB_PORT, IB_ERRORS, RAIL, SOFTWARE,
                OPEN_MODULE, NOT_JUDGED);
    }
}
