package hostside.machine;

import static hostside.core.Severity.INFO;
import static hostside.core.Severity.OK;
import static hostside.core.Severity.UNKNOWN;
import static hostside.core.Severity.WARN;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import hostside.core.Evidence;
import hostside.core.Finding;
import hostside.core.Rule;
import hostside.core.Severity;
import hostside.core.Source;
import hostside.harness.Unsettled;

/**
 * Module 1's rules on what the GPU drill's measurements mean: the copies between host and GPU
 * ({@link CopyVerdicts}), the copies from each NUMA node ({@link NodeVerdicts}) and the launch costs
 * from each kind of core ({@link LaunchVerdicts}). Figures measured while the machine was busy give
 * each measured rule an unknown finding that says them, never a fix. Two figures whose samples'
 * ranges overlap are never ordered ({@link hostside.core.Stats#differsFrom}): the finding says they
 * are even within noise and draws nothing from their difference. The rules on host memory are
 * {@link MemoryRules}'.
 */
public final class GpuRules {
    private GpuRules() {}

    /** The project's own copy figures: the H200 VM against nvbandwidth and PyTorch, on PCIe Gen5 x16. */
    static final Source COPY_FIGURES = Source.measurement("docs/measurements/2026-12-02-h200-gpu.md: on the H200 VM (PCIe Gen5 x16), pinned"
            + " copies 55.3-55.5 GB/s each way (nvbandwidth 55.2 and 55.3), pageable 5.2-8.6 GB/s host to device and 11.0-15.3 back (they swing run to run), SM copies"
            + " 50.3-52.6, one dependent GPU load from host memory 1.2 us (nvbandwidth 1204 ns), half the pinned peak at 256 KiB,"
            + " cuMemHostAlloc 563 ms and cuMemHostRegister 53 ms per GiB");

    /** A pinned copy below this share of the link's rate (after line encoding) is below every healthy link measured. */
    public static final double LINK_SHARE_FLOOR = 0.7;
    /** What healthy links reach, for the lines that quote the rule. */
    public static final String HEALTHY_SHARES = "healthy links reach about 76-84% of PCIe Gen4 (RTX 4090) and 88-91% of Gen5 (H200, RTX 5090)";
    /** A node whose pinned copies run below this share of the GPU's node's makes the placement worth a binding. */
    static final double NODE_SHARE = 0.9;
    /** A kind of core whose launches cost this many times the big kind's is one to keep the feeder off. */
    static final double LAUNCH_RATIO = 1.2;

    public static final Rule PAGEABLE = Rule.of("M1-PAGEABLE", "copies from pageable memory against pinned, each direction", EnumSet.of(INFO, UNKNOWN),
            "the driver copies a pageable buffer into pinned staging memory before the copy engine moves it, so pageable copies run at a"
                    + " fraction of pinned ones; DataLoader(pin_memory=True) copies each batch into pinned memory in a thread of its own, and"
                    + " .to(device, non_blocking=True) then lets the CPU go on while the copy runs. Pinning a tensor right before each copy"
                    + " (tensor.pin_memory().to(device, non_blocking=True)) can be slower than a plain .to(device)",
            "",
            Source.document("CUDA Driver API, 2. API synchronization behavior: a transfer from pageable host memory to device memory returns once"
                    + " the pageable buffer has been copied to the staging memory for DMA transfer to device memory"),
            Source.document("PyTorch tutorial 'A guide on good usage of non_blocking and pin_memory() in PyTorch' (intermediate/pinmem_nonblock):"
                    + " tensor.pin_memory().to(device, non_blocking=True) can be up to twice as slow as tensor.to(device)"),
            Source.source("pytorch/pytorch torch/utils/data/_utils/pin_memory.py (commit 3b76e151): _pin_memory_loop, which the DataLoader runs"
                    + " in a thread of its own, pins each batch (torch.set_num_threads(1) there: one thread's copy)"),
            COPY_FIGURES);

    public static final Rule LINK_SHARE = Rule.of("M1-LINK-SHARE", "pinned host-to-device copies as a share of the PCIe link's rate",
            EnumSet.of(OK, WARN, UNKNOWN),
            "a pinned copy is the fastest a batch reaches the GPU over its link; packet headers and flow control take a share"
                    + " of the link's rate after line encoding, so " + HEALTHY_SHARES + ". Well below that, every copy to the GPU is that much slower",
            "read the link while copies run (nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.width.current --format=csv, or lspci -vv's LnkSta): one below its maximum under"
                    + " load is the slot's, the riser's or the BIOS's to settle; compare the copies from each NUMA node (a pinned buffer on a far node crosses the sockets); check the IOMMU"
                    + " (dmesg | grep -i iommu; iommu=pt or iommu.passthrough=1 maps host devices one to one)",
            COPY_FIGURES,
            Source.thread("NVIDIA/nvbandwidth#15: host_to_device_memcpy_ce 23.9-26.4 GB/s on eight RTX 4090s (PCIe Gen4 x16, 31.5 GB/s),"
                    + " tinygrad/open-gpu-kernel-modules#29: 56.3-56.4 GB/s host to device, 57.3 back, on RTX 5090s (Gen5 x16, 63.0 GB/s)"),
            Source.document("Intel AN 456, PCI Express High Performance Reference Design, 1.1.2 Throughput for Posted Writes: a 256-byte payload"
                    + " behind five dwords of overhead is at most 92% of the link, before DLLPs and flow-control updates"),
            Source.document("Linux Kconfig IOMMU_DEFAULT_PASSTHROUGH: identity-mapped devices get unrestricted access to memory with minimal"
                    + " performance overhead (iommu.passthrough=1, historically iommu=pt); Intel Ethernet 800 Series Linux Performance Tuning Guide,"
                    + " IOMMU: each DMA access by the device must be translated"),
            Source.reasoned(Math.round(100 * LINK_SHARE_FLOOR) + "%: below the lowest healthy share measured (76% on Gen4), so that a Gen4"
                    + " workstation is not named and a link or placement fault is"));

    public static final Rule OFFLOAD_TIME = Rule.of("M1-OFFLOAD-TIME", "how long 10 GB takes to reach the GPU from pinned and from pageable memory",
            EnumSet.of(INFO, UNKNOWN),
            "Module 6's offload example: optimizer state or a KV cache of 10 GB moved each step costs this much of the step unless it"
                    + " overlaps compute", "",
            Source.reasoned("10 GB divided by the measured host-to-device rate"), COPY_FIGURES);

    public static final Rule SM_COPY = Rule.of("M1-SM-COPY", "a kernel's SMs reading and writing host memory against the copy engine",
            EnumSet.of(INFO, UNKNOWN),
            "a kernel can stream host memory in place (zero-copy, unified addressing) instead of copying it first, but it occupies SMs"
                    + " the copy engine would have left to compute", "",
            Source.document("NVIDIA/nvbandwidth README, Test Details: CE copies use memcpy APIs, SM copies use kernels"),
            Source.thread("NVIDIA/nvbandwidth#24: host_to_device_memcpy_sm 35.2 GB/s against device_to_host_memcpy_sm 52.8 on an H100 cluster:"
                    + " SM reads of host memory vary by platform"),
            COPY_FIGURES);

    public static final Rule HOST_LATENCY = Rule.of("M1-HOST-LATENCY", "one dependent GPU load from host memory (a pointer chase)",
            EnumSet.of(INFO, UNKNOWN),
            "a GPU thread that reads host memory one dependent load at a time (pointer chasing, small scattered reads) waits this long for each;"
                    + " data moved to the GPU in bulk first is read at the GPU memory's latency instead", "",
            Source.source("NVIDIA/nvbandwidth host_device_latency_sm (testcases and nvbandwidth.cpp): a pointer-chase kernel over a 2 MiB"
                    + " host buffer"),
            COPY_FIGURES);

    public static final Rule COPY_SIZE = Rule.of("M1-COPY-SIZE", "the copy size at which host-to-device copies reach half their peak",
            EnumSet.of(INFO, UNKNOWN),
            "below that size most of a copy's time is its fixed cost, not the link: many small copies (per-sample tensors, small"
                    + " parameters) move far slower than one batched copy", "",
            Source.reasoned("a copy of b bytes taking t0 + b / peak reaches half the peak where t0 = b / peak: below it the fixed cost t0 is"
                    + " more than half of each copy"),
            COPY_FIGURES);

    public static final Rule PIN_COST = Rule.of("M1-PIN-COST", "what pinning host memory costs per GiB (cuMemHostAlloc, cuMemHostRegister)",
            EnumSet.of(INFO, UNKNOWN),
            "pinning is paid when a pinned buffer is made, not when it is used: PyTorch's pin_memory() takes its blocks from a caching host"
                    + " allocator that keeps them for reuse, so a loop of same-sized batches pays it in its first steps, while a buffer pinned"
                    + " anew every step pays it every step", "",
            Source.source("pytorch/pytorch aten/src/ATen/core/CachingHostAllocator.h (commit dd2a7efe): pinned blocks rounded up to a power of"
                    + " two and kept on free lists for reuse; aten/src/ATen/cuda/PinnedMemoryAllocator.h: pin_memory() allocates from it"),
            COPY_FIGURES);

    public static final Rule COPY_NODE = Rule.of("M1-COPY-NODE", "pinned copies to a GPU from each NUMA node: where its pinned buffers and feeders belong",
            EnumSet.of(WARN, UNKNOWN, INFO, OK),
            "a pinned buffer on a node other than the GPU's is read across the link between sockets; a job whose processes are not bound"
                    + " gets its buffers wherever its threads first touch them",
            "run each GPU's feeding processes on the node the finding names, their memory bound there: numactl --cpunodebind=N --membind=N",
            Source.document("numactl(8): --cpunodebind runs the process on the node's CPUs, --membind allocates its memory only from the nodes"
                    + " given"),
            Source.measurement("docs/measurements/2026-12-05-memory-vs-stream-h100.md: the H100 VM's one node, 55.34 GB/s from it against 55.31 for"
                    + " host_to_device_ce_pinned; a machine of two nodes was not measured yet"),
            Source.reasoned(Math.round(100 * (1 - NODE_SHARE)) + "% slower, beyond both spreads: less is not worth a binding that constrains"
                    + " where the job may run"));

    public static final Rule COPY_NODE_PAGEABLE = Rule.of("M1-COPY-NODE-PAGEABLE", "pageable copies to a GPU from each NUMA node",
            EnumSet.of(INFO, UNKNOWN),
            "a pageable source on a slower node makes every pageable copy from it slower; pinning it avoids the staging altogether", "",
            Source.document("CUDA Driver API, 2. API synchronization behavior: a pageable copy is first copied to staging memory for DMA"),
            Source.reasoned("slower beyond both spreads, as measured: which part of the staging crosses the sockets, this run does not see"));

    public static final Rule LAUNCH_CORES = Rule.of("M1-LAUNCH-CORES", "what a kernel launch and a copy submission cost from each kind of core",
            EnumSet.of(WARN, UNKNOWN, INFO),
            "the thread that launches kernels (the training loop's) pays this host time per launch; on a hybrid CPU the scheduler may run it"
                    + " on either kind, and on the slower one a loop of small kernels launches that much slower",
            "keep the training loop's thread on the faster kind: taskset -c with the CPUs the finding names, or os.sched_setaffinity",
            Source.measurement("docs/measurements/2026-12-05-memory-vs-stream-h100.md: launch 3688 ns and copy submission 1951 ns from CPU 1 of the"
                    + " H100 VM (one kind of core), the host time of cuLaunchKernel and cuMemcpyHtoDAsync alone; a hybrid CPU was not measured yet"),
            Source.reasoned(LAUNCH_RATIO + " times, beyond both spreads: a fifth more per launch; less is no reason to constrain where the"
                    + " loop runs"));

    public static final Rule GPU_UNUSED = Rule.of("M1-GPU-UNUSED", "a GPU the drill could not open (exclusive compute mode in use, a driver"
                    + " error; a GPU in MIG mode is not run, its results say why)", EnumSet.of(UNKNOWN),
            "nothing was measured on it, so nothing about its copies is judged", "",
            Source.document("CUDA Driver API, CUcomputemode: CU_COMPUTEMODE_EXCLUSIVE_PROCESS, only one context used by a single process can be"
                    + " present on the device at a time; CU_COMPUTEMODE_PROHIBITED, no contexts can be created"));

    /** A figure of Module 1 (memory, copies, launches) whose median did not settle in its samples and time. */
    public static final Rule UNSETTLED = Unsettled.rule(1);

    /** Module 1's measured rules, the GPU's and host memory's ({@link MemoryRules}), as the rulebook lists them. */
    public static List<Rule> all() {
        List<Rule> all = new ArrayList<>(List.of(PAGEABLE, LINK_SHARE, OFFLOAD_TIME, SM_COPY, HOST_LATENCY, COPY_SIZE, PIN_COST, COPY_NODE,
                COPY_NODE_PAGEABLE, LAUNCH_CORES, GPU_UNUSED, UNSETTLED));
        all.addAll(MemoryRules.all());
        return List.copyOf(all);
    }

    /**
     * What one rule concluded from measured figures, before the machine's load is weighed.
     *
     * @param figures the figures alone, what an unknown finding says when the machine was busy
     * @param text    the figures and what they mean
     */
    record Judged(Rule rule, Severity severity, String subject, String figures, String text, List<Evidence> evidence) {
        Judged {
            evidence = List.copyOf(evidence);
        }

        /** As a finding: unknown, its figures said and no fix, where {@code busy} names what made the machine busy. */
        Finding finding(List<String> busy) {
            return rule.measured(severity, subject, text, figures, evidence, busy);
        }

        static List<Finding> findings(List<Judged> judged, List<String> busy) {
            return judged.stream().map(j -> j.finding(busy)).toList();
        }
    }
}
