package hostside.cpu.dataloader;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

import hostside.cpu.dataloader.ProcMemory.Sample;
import hostside.harness.Cut;

/**
 * What one copy-on-write run gives beside its figure (the growth of each worker's USS as a share
 * of the dataset): the dataset, main and every worker with their memory over time, and the checks
 * that say the figures can be trusted. Sizes in bytes.
 *
 * @param data                 list or array
 * @param datasetBytes         what the dataset takes in main (the growth is a share of this)
 * @param datasetMeasuredBy    whether that is main's measured USS growth or the script's estimate
 * @param datasetEstimateBytes the script's estimate (getsizeof; nbytes for the array)
 * @param items                items in the dataset
 * @param workers              workers forked
 * @param passes               passes each worker made over every item
 * @param passMs               the least time one pass lasted
 * @param meanGrowthPercent    the workers' mean growth, % of the dataset
 * @param totalGrowthBytes     the workers' growth added up: the memory the run cost beyond main
 * @param totalPssBytes        PSS of main and the workers at the end (each shared page counted once)
 * @param totalPssAtStartBytes the same after fork, before the first pass
 * @param totalPssPerDataset   totalPssBytes over datasetBytes: how many datasets' worth the run holds
 * @param main                 the process that built the dataset and forked the workers
 * @param perWorker            each worker, in the order forked
 * @param rounds               sampling rounds while the workers ran
 * @param sampleIntervalMs     the time between rounds
 * @param seconds              how long the workers ran
 * @param pageSize             the kernel's base page size
 * @param rssCheckMaxGapBytes  the largest gap between a worker's VmRSS and its smaps_rollup Rss at the end
 * @param peakRssBytes         the largest VmHWM of main and the workers (what /usr/bin/time -v reports); null when unread
 * @param peakRssOf            whose it is: "main" or "worker N"; null with it
 * @param python               the interpreter's version
 * @param cut                  --dataset-size cut to fit the machine; null when used as asked
 */
@JsonIgnoreProperties(value = "rssCheck", allowGetters = true)
public record CowDetail(DatasetKind data, long datasetBytes, DatasetMeasure datasetMeasuredBy, long datasetEstimateBytes, long items, int workers,
                        int passes, long passMs, double meanGrowthPercent, long totalGrowthBytes, long totalPssBytes, long totalPssAtStartBytes,
                        double totalPssPerDataset, MainProcess main, List<Worker> perWorker, int rounds, long sampleIntervalMs, double seconds,
                        long pageSize, long rssCheckMaxGapBytes, Long peakRssBytes, String peakRssOf, String python, Cut cut) implements Cut.Holder {
    /** VmRSS and Rss are "the same" within this many base pages (VmRSS's per-CPU counters lag a little). */
    static final int RSS_AGREE_PAGES = 16;

    public CowDetail {
        perWorker = List.copyOf(perWorker);
    }

    /** The same run, with the dataset size it was cut to. */
    public CowDetail withCut(Cut c) {
        return new CowDetail(data, datasetBytes, datasetMeasuredBy, datasetEstimateBytes, items, workers, passes, passMs, meanGrowthPercent,
                totalGrowthBytes, totalPssBytes, totalPssAtStartBytes, totalPssPerDataset, main, perWorker, rounds, sampleIntervalMs, seconds,
                pageSize, rssCheckMaxGapBytes, peakRssBytes, peakRssOf, python, c);
    }

    /** Whether every worker's two RSS counters agreed: the page walk and the kernel's counter saw the same memory. */
    public boolean rssAgrees() {
        return rssCheckMaxGapBytes <= RSS_AGREE_PAGES * pageSize;
    }

    /** The cross-check in a line, for people reading the JSON; derived from the gap, never read back. */
    @JsonProperty("rssCheck")
    public String rssCheck() {
        return rssAgrees()
                ? "VmRSS (/proc/PID/status) and Rss (smaps_rollup) agree within " + rssCheckMaxGapBytes / 1024 + " KiB for every worker"
                : "VmRSS and Rss differ by up to " + rssCheckMaxGapBytes / 1024 + " KiB (more than " + RSS_AGREE_PAGES + " pages)";
    }

    /** Where {@code datasetBytes} comes from. Written as the sentence that says it. */
    public enum DatasetMeasure {
        /** main's USS grew by this much while it built the dataset */
        MAIN_USS_GROWTH("main's USS growth while it built the dataset"),
        /** the growth could not be measured: the script's own estimate */
        SCRIPT_ESTIMATE("the script's estimate (getsizeof)");

        private final String text;

        DatasetMeasure(String text) {
            this.text = text;
        }

        @JsonValue
        public String text() {
            return text;
        }

        @JsonCreator
        public static DatasetMeasure of(String text) {
            for (DatasetMeasure m : values()) if (m.text.equals(text)) return m;
            throw new IllegalArgumentException("\"" + text + "\": not a way the dataset's size is measured");
        }
    }

    /** One look at one process, ms after the workers were ready. */
    public record MemoryPoint(long tMs, long rssBytes, long pssBytes, long ussBytes, long sharedBytes) {
        static MemoryPoint of(Sample s) {
            return new MemoryPoint(s.atMillis(), s.rss(), s.pss(), s.uss(), s.shared());
        }

        static List<MemoryPoint> of(List<Sample> samples) {
            return samples.stream().map(MemoryPoint::of).toList();
        }
    }

    /** The main process: its USS before and after building the dataset, and at the end. */
    public record MainProcess(long pid, long beforeBuildUssBytes, long afterBuildUssBytes, long finalRssBytes, long finalPssBytes, long finalUssBytes,
                              List<MemoryPoint> samples) {
        public MainProcess {
            samples = List.copyOf(samples);
        }
    }

    /**
     * One worker.
     *
     * @param worker          its number, in the order forked
     * @param growthBytes     its USS after its last pass minus before its first
     * @param growthPercent   that, % of the dataset (two decimals)
     * @param vanishedLooks   looks that found it gone (expected after its last pass)
     * @param unreadableLooks looks that found it there but unreadable
     * @param unreadable      the last reason for those; null when there were none
     */
    public record Worker(int worker, long pid, long startUssBytes, long finalRssBytes, long finalVmRssBytes, long finalPssBytes, long finalUssBytes,
                         long finalSharedBytes, long growthBytes, double growthPercent, int vanishedLooks, int unreadableLooks, String unreadable,
                         List<MemoryPoint> samples) {
        public Worker {
            samples = List.copyOf(samples);
        }
    }
}
