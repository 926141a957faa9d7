package hostside.io;

import static hostside.core.Severity.INFO;
import static hostside.core.Severity.UNKNOWN;
import static hostside.core.Severity.WARN;

import java.util.EnumSet;
import java.util.List;

import hostside.core.Rule;
import hostside.core.Source;
import hostside.harness.Unsettled;

/**
 * Module 4's rules on what its reads and writes mean for loading and saving checkpoints and
 * reading datasets. The conditions are {@link MeasuredVerdicts}'; a figure measured while the
 * machine was busy gives each of them an unknown finding that says its figures, never a path or a
 * fix; so does a figure no disk gives a reader to act on (32 reads in flight slower than one at a
 * time, a cached read slower than the disk, a write with fsync faster than one without).
 */
public final class IoRules {
    private IoRules() {}

    /** Where the VM's figures and the doubtful depth came from, beside fio's jobs. */
    static final Source IO_FIGURES = Source.measurement("docs/measurements/2026-12-02-io.md (the H200 VM's virtio disk: cold through the page"
            + " cache 1.65 GB/s, O_DIRECT one at a time 1.55, 32 in flight 1.28) and 2026-12-04-peers-final.md (the dev VM, every 1 MiB buffer in 256"
            + " physical pieces: hostside's 32 in flight 0.78 GB/s against 0.92 one at a time, while fio's own 32-in-flight job read 1.09);"
            + " 2026-12-03-io-vs-fio.md (a virtio-blk request carries a segment per physically contiguous piece of its buffer: 1.03-1.25 GB/s"
            + " at 236-256 pieces, 4.21-4.93 from one huge page)");

    static final Source MATERIAL = Source.reasoned("a difference counts beyond both figures' spread (core.Versus) and only above 10% of the"
            + " slower figure: less than that is no reason to change a loader");

    public static final Rule LOAD_PATH = Rule.of("M4-LOAD-PATH",
            "which path a checkpoint loader should read by: through the page cache, O_DIRECT one read at a time, or O_DIRECT with 32 in flight",
            EnumSet.of(WARN, UNKNOWN, INFO),
            "a checkpoint is read once, sequentially: loaders that read through the page cache (torch.load; safetensors' safe_open maps the"
                    + " file) get the kernel's readahead, which keeps reads in flight ahead of them; O_DIRECT skips the cache and its copy but"
                    + " is only as fast as the reads the loader keeps in flight itself. Where another path is ahead of the page cache, a load"
                    + " through it takes that much longer. 32 reads in flight slower than one at a time is no property of a disk: it points at"
                    + " the measurement, the device's queue or another load, and no path is drawn from it",
            "read checkpoints around the page cache (O_DIRECT) with as many reads in flight as the figures show pay: parallel readers or"
                    + " io_uring; GPUDirect Storage's cuFile reads a file opened O_DIRECT straight into GPU memory where nvidia_fs is loaded",
            Source.document("open(2), O_DIRECT (man7.org): I/O directly to and from user-space buffers, 'in general this will degrade"
                    + " performance, but it is useful in special situations'; Linux mm/readahead.c, DOC: Readahead Overview (asynchronous"
                    + " readahead ahead of the reader); cuFile API: the file must be opened O_DIRECT for GPUDirect Storage"),
            IO_FIGURES,
            Source.source("huggingface/safetensors bindings/python/src/lib.rs at 000a16f: safe_open maps the file (memmap2, or torch's"
                    + " UntypedStorage.from_file), so its reads go through the page cache"),
            MATERIAL,
            Source.reasoned("32 in flight below one at a time: the one-at-a-time figure is O_DIRECT's own where measured, else the page"
                    + " cache's (a quick report measures only that); a deeper queue of the same reads does not make a device slower"
                    + " beyond the noise, so the figures are doubted, not acted on"));

    public static final Rule PAGE_CACHE = Rule.of("M4-PAGE-CACHE",
            "what a read from the page cache gains over a cold one, and the memory the cached file holds",
            EnumSet.of(UNKNOWN, INFO),
            "a checkpoint or dataset read again while cached comes at memory speed; the cached pages stay until the kernel needs the memory,"
                    + " which it then takes back (MemAvailable counts them) at the cost of reclaiming them first. A cached read slower than"
                    + " the cold one is no property of the cache: the pages were not all held, or another load ran",
            "",
            Source.document("Linux Documentation/filesystems/proc.rst, MemAvailable (calculated from MemFree, SReclaimable, the file LRU"
                    + " lists); posix_fadvise(2), POSIX_FADV_DONTNEED; Documentation/filesystems/tmpfs.rst (tmpfs keeps its files in"
                    + " memory, swapped out only where swap is on)"),
            MATERIAL);

    public static final Rule RANDOM_DEPTH = Rule.of("M4-RANDOM-DEPTH",
            "whether small random reads (a dataset of 4 KiB samples) gain from keeping 32 reads in flight",
            EnumSet.of(WARN, UNKNOWN, INFO),
            "a reader of small samples that reads one at a time (a DataLoader worker reading its samples in turn) gets the IOPS of one read"
                    + " in flight; a device that serves many at once gives more only to a loader that keeps them in flight",
            "keep more reads in flight: more DataLoader workers (num_workers), or batched asynchronous reads (io_uring) in the dataset",
            Source.document("fio HOWTO, iodepth: the number of I/O units to keep in flight against the file (the jobs hostside names:"
                    + " --rw=randread --bs=4k --direct=1 --iodepth=1 and --ioengine=io_uring --iodepth=32)"),
            Source.measurement("docs/measurements/2026-12-04-peers-final.md: the H200 VM's virtio disk 26,753 IOPS one at a time and"
                    + " 80,418 with 32 in flight, fio 26,686 and 80,641"),
            Source.reasoned("twice the IOPS with 32 in flight, beyond both spreads, is a gain a loader of small samples must keep reads in flight"
                    + " for; under it more workers help a little; fewer IOPS with 32 in flight than one at a time is doubted, not acted on"));

    public static final Rule SAVE = Rule.of("M4-SAVE", "what saving a checkpoint costs: into the page cache, and with fsync until it is on the disk",
            EnumSet.of(UNKNOWN, INFO),
            "a save returns once the page cache holds the bytes, at memory speed up to the kernel's dirty limit (vm.dirty_ratio or"
                    + " vm.dirty_bytes) and at the disk's past it; only fsync waits until the device reports them stored, and a step that"
                    + " saves synchronously waits for both. Saving from a background thread or process (torch.distributed.checkpoint's"
                    + " async_save) hides it, at the cost of a copy of the state in CPU memory. On tmpfs nothing reaches a disk",
            "",
            Source.document("fsync(2): blocks until the device reports that the transfer has completed; Linux"
                    + " Documentation/admin-guide/sysctl/vm.rst, dirty_ratio and dirty_bytes: past them a writer writes back itself"),
            Source.document("PyTorch recipe, Asynchronous Saving with Distributed Checkpoint (DCP), torch.distributed.checkpoint.async_save"
                    + " (PyTorch 2.4 or later): the state is first copied into CPU buffers"),
            Source.measurement("docs/measurements/2026-12-04-peers-final.md: on the H200 VM 5.05 GB/s buffered and 1.79 GB/s with fsync,"
                    + " fio with --fallocate=none 5.04 and 1.77"));

    /** Module 4's measured rules, as the rulebook lists them. */
    /** A figure whose median did not settle in its samples and time. */
    public static final Rule UNSETTLED = Unsettled.rule(4);

    public static List<Rule> all() {
        return List.of(LOAD_PATH, PAGE_CACHE, RANDOM_DEPTH, SAVE, UNSETTLED);
    }
}
