package hostside.health.host;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.fs.FactReads;

/**
 * One aer_dev_{correctable,nonfatal,fatal} file of a PCI function.
 *
 * <p>The format, from the kernel (drivers/pci/pcie/aer.c, aer_stats_dev_attr, and
 * Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats, since 4.19, July 2018): one line
 * per error kind, {@code "<name> <count>"}, then {@code TOTAL_ERR_COR}, {@code TOTAL_ERR_FATAL} or
 * {@code TOTAL_ERR_NONFATAL} last. Names hold spaces on recent kernels ("Receiver Error 2",
 * "RELAY_NUM Rollover 0") and are short on older ones ("RxErr 0", "BadTLP 0"); an unnamed bit that
 * counted shows as {@code dev_cor_errs_bit[N]}. So the count is the last word and the name all
 * before it. The total counts ERR_* messages, and one message may carry several errors: it "may
 * not match" the sum of the lines, and is kept as the kernel gives it.
 *
 * @param counters each named counter, in the file's order (TOTAL_* excluded)
 * @param total    the TOTAL_ERR_* line; null when the file has none (a damaged recording)
 */
public record AerCounts(Map<String, Long> counters, Long total) {

    /** Parses one file's text; a line that is not "name count" goes to {@code unknowns} with the path. */
    static AerCounts parse(String text, String path, List<String> unknowns) {
        Map<String, Long> counters = new LinkedHashMap<>();
        Long total = null;
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty()) continue;
            int space = line.lastIndexOf(' ');
            Long count = space < 0 ? null : FactReads.parseNumber(line.substring(space + 1));
            String name = space < 0 ? "" : line.substring(0, space).strip();
            if (count == null || name.isEmpty()) {
                unknowns.add(path + ": not \"name count\": \"" + FactReads.shown(line) + "\"");
            } else if (name.startsWith("TOTAL_")) {
                total = count;
            } else if (counters.putIfAbsent(name, count) != null) {
                unknowns.add(path + ": \"" + FactReads.shown(name) + "\" twice; the first count is kept");
            }
        }
        if (total == null) unknowns.add(path + ": no TOTAL_ERR_* line");
        return new AerCounts(counters, total);
    }

    /** The total, else the sum of the counters: what a rule compares, knowing the total may be less than the sum. */
    public long count() {
        return total != null ? total : counters.values().stream().mapToLong(Long::longValue).sum();
    }
}
