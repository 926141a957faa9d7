package hostside.vm;

import static hostside.core.Severity.INFO;
import static hostside.core.Severity.OK;
import static hostside.core.Severity.UNKNOWN;
import static hostside.core.Severity.WARN;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Source;
import hostside.harness.Unsettled;
import hostside.vm.facts.VmFactRules;
import hostside.core.Units;

/**
 * Module 2's rules on what its measurements mean for the host memory a training job uses. The
 * conditions are {@link MeasuredVerdicts}'; a figure measured while the machine was busy gives each
 * of them an unknown finding, never a fix. The rules on the settings (THP, memlock, NUMA balancing
 * and the rest) are {@link VmFactRules}', beside the code that reads them.
 */
public final class VmRules {
    private VmRules() {}

    static final Source VM_FIGURES = Source.measurement("docs/measurements/2026-12-02-vm.md: first touch 1.55 us per 4 KiB fault on the H200 VM and"
            + " 12.2 us on the dev VM; read() against mmap, the TLB curves, managed memory and pinning on both");

    public static final Rule READ_VS_MMAP = Rule.of("M2-READ-VS-MMAP", "read() against mmap of one file, cold (evicted from the page cache) and warm",
            EnumSet.of(INFO, UNKNOWN),
            "how a data loader is better off reading its files here: copied out by read() (np.fromfile, torch.load) or mapped (np.memmap,"
                    + " safetensors); where the two are within " + Units.share(MeasuredVerdicts.SAME) + " of each other, or within noise, choose by convenience",
            "", VM_FIGURES, Source.reasoned(Units.share(MeasuredVerdicts.SAME) + ": no choice of loader turns on less; and a difference counts only"
                    + " beyond both runs' spreads (core.Versus)"));

    public static final Rule FIRST_TOUCH = Rule.of("M2-FIRST-TOUCH", "what the first touch of a fresh base page costs (a minor fault, the page zeroed)",
            EnumSet.of(OK, WARN, UNKNOWN),
            "every buffer allocated anew pays it on each page's first use: a staging or pinned buffer allocated every step pays it every step, one"
                    + " allocated once and reused pays it once",
            "reuse buffers across steps instead of allocating them each step; in a VM, ask the platform team how guest memory is backed (the first"
                    + " touch of guest memory the hypervisor has not backed yet exits to it); on bare metal, check memory cgroup pressure and"
                    + " compaction (grep compact_stall /proc/vmstat)",
            VM_FIGURES,
            Source.document("Intel SDM Vol. 3C, 28.2.3.2 EPT Violations: a guest-physical access whose EPT entry is not present causes a VM exit"),
            Source.reasoned((long) MeasuredVerdicts.SLOW_FAULT_US + " us per fault: about twice the H200 VM's 1.55 us and a quarter of the dev VM's"
                    + " 12.2 us, so that a VM whose first touches exit to the hypervisor is named and a healthy one is not"));

    public static final Rule HUGE_PAGES = Rule.of("M2-HUGE-PAGES",
            "whether a region that asks for huge pages (madvise(MADV_HUGEPAGE)) gets them, and what they do to its first touch",
            EnumSet.of(WARN, UNKNOWN, INFO, OK),
            "a program that asks for huge pages gets them only where the kernel finds free huge-page-sized blocks it may charge; where it does not,"
                    + " large host tables keep base pages, their faults and their TLB misses. PyTorch's CPU allocator asks only with"
                    + " THP_MEM_ALLOC_ENABLE=1, for allocations of 2 MiB or more",
            "check THP's defrag mode (cat /sys/kernel/mm/transparent_hugepage/defrag: madvise or defer+madvise let a region that asks compact"
                    + " memory at fault time) and compact memory now (echo 1 > /proc/sys/vm/compact_memory); in a container, a memory cgroup near"
                    + " its limit refuses huge pages too (thp_fault_fallback_charge in /proc/vmstat)",
            VmFactRules.KERNEL_THP, VmFactRules.PYTORCH_THP,
            Source.reasoned((long) MeasuredVerdicts.FEW_HUGE_PERCENT + "%: under half the region in huge pages is more than an unaligned start"
                    + " and end can leave out; it is huge pages not forming"));

    public static final Rule TLB_REACH = Rule.of("M2-TLB-REACH", "random loads over growing working sets, in base pages and in huge pages: where base"
                    + " pages fall behind", EnumSet.of(INFO, UNKNOWN),
            "a host table read at random (embeddings, KV-cache offload, a dataset held in memory) larger than where base pages fall behind pays a"
                    + " page walk on most loads; huge pages move that point out. In a VM, guest huge pages pay only where the hypervisor backs"
                    + " the same memory with large pages too",
            "", VM_FIGURES,
            Source.document("VMware vSphere 7.0 Resource Management, Hardware-Assisted MMU Virtualization: a TLB miss walks both the guest's and the"
                    + " hypervisor's tables, and the best performance needs large pages in both"),
            Source.document("Pham, Vesely, Loh, Bhattacharjee, Using TLB Speculation to Overcome Page Splintering in Virtual Machines (Rutgers"
                    + " DCS-TR-713, 2015): the TLB gains a large page's reach only where both the guest and the hypervisor back the region with one"),
            Source.reasoned("a size counts as apart where base pages are 25% slower beyond both walks' spreads; once apart, the gap closes only"
                    + " below 10% (TlbReach.knee), so that one noisy size neither opens nor closes it"));

    public static final Rule MANAGED_PREFETCH = Rule.of("M2-MANAGED-PREFETCH", "managed (unified) memory moved to the GPU by GPU page faults against"
                    + " cudaMemPrefetchAsync", EnumSet.of(INFO, UNKNOWN),
            "a managed tensor the GPU reads by faulting moves at the fault rate; prefetched before the kernel (cudaMemPrefetchAsync), or copied"
                    + " explicitly, it moves at the prefetch rate",
            "", Source.document("CUDA C++ Programming Guide, Unified Memory: performance hints, data prefetching with cudaMemPrefetchAsync"),
            VM_FIGURES, Source.reasoned("prefetch " + Units.share(MeasuredVerdicts.PREFETCH_GAIN) + " faster than faults, beyond both spreads, before the"
                    + " line says to prefetch"));

    public static final Rule PIN_COST = Rule.of("M2-PIN-COST", "what pinning host memory costs per GiB, by cudaHostAlloc and by cudaHostRegister of"
                    + " touched memory", EnumSet.of(INFO, UNKNOWN),
            "pinning is paid when a pinned buffer is made, not when it is used: PyTorch's pin_memory() takes its blocks from the caching host"
                    + " allocator, which rounds them up to a power of two and reuses them once freed, so a loop of same-sized batches pays it in"
                    + " its first steps; a buffer pinned anew every step (cudaHostRegister of a fresh tensor, a new cudaHostAlloc) pays it every step",
            "", Source.source("pytorch/pytorch aten/src/ATen/core/CachingHostAllocator.h (commit dd2a7efe): pinned blocks rounded up to a power of two"
                    + " and kept on free lists for reuse; aten/src/ATen/cuda/PinnedMemoryAllocator.h: pin_memory() allocates from it"),
            VM_FIGURES);

    /** The same note as Module 4's M4-STALE-TEST-FILES, for the VM drill's folder: each drill says what it removed. */
    public static final Rule STALE_TEST_FILES = Rule.of("M2-STALE-TEST-FILES", "test files a killed run left in the VM drill's folder, removed",
            EnumSet.of(INFO),
            "the space they held is free again; a run killed mid-drill (SIGKILL, the OOM killer) leaves them, since nothing ran its cleanup", "",
            Source.reasoned("a file is removed only when its name has hostside's shape, it and its lock file are this user's regular files,"
                    + " and the lock's fcntl lock is free, so its owner is dead (harness.StaleTestFiles)"));

    /** A figure whose median did not settle in its samples and time. */
    public static final Rule UNSETTLED = Unsettled.rule(2);

    /** The rules of the measurements, in the order the drill says them. */
    static List<Rule> measured() {
        return List.of(READ_VS_MMAP, FIRST_TOUCH, HUGE_PAGES, TLB_REACH, MANAGED_PREFETCH, PIN_COST, UNSETTLED);
    }

    /** Module 2's rules, the settings' and the measurements', as the rulebook lists them. */
    public static List<Rule> all() {
        List<Rule> all = new ArrayList<>(VmFactRules.all());
        all.addAll(measured());
        all.add(STALE_TEST_FILES);
        return List.copyOf(all);
    }

}
