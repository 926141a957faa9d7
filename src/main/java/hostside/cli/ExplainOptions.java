package hostside.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine.Option;

import hostside.vm.explain.CowScenarios;
import hostside.vm.explain.Maps;
import hostside.vm.explain.PageWalk;
import hostside.vm.explain.Step;

/**
 * The --explain options of `hostside vm`: which stepper, and its inputs. Values stay strings until steps() so that
 * every bad value gets one line naming it and the allowed ones (the command turns that into exit code 2).
 */
public final class ExplainOptions {
    public static final String PAGEWALK = "pagewalk";
    public static final String COW = "cow";

    @Option(names = "--explain", arity = "1..2", paramLabel = "TOPIC [ARG]",
            description = "Step through a mechanism: 'pagewalk [ADDRESS]' (default address " + PageWalk.Options.DEFAULT_ADDRESS + ") "
                    + "or 'cow' (fork, copy-on-write and a DataLoader's memory). Enter or space for the next step, q to quit.")
    List<String> explain = new ArrayList<>();

    @Option(names = "--all", description = "Print every step at once instead of waiting for a key.")
    boolean all;

    @Option(names = "--layout", paramLabel = "LAYOUT",
            description = "Page-table layout for pagewalk: x86-64-4, x86-64-5, arm64-4k, arm64-64k (default: this machine's).")
    String layout;

    @Option(names = "--page", paramLabel = "SIZE",
            description = "Page size for pagewalk: base, 2M, 1G (x86-64, arm64-4k) or 512M (arm64-64k). Default: base.")
    String page;

    @Option(names = "--tlb", paramLabel = "hit|miss", description = "Whether the TLB already holds the translation. Default: miss.")
    String tlb;

    @Option(names = "--fault-at", paramLabel = "LEVEL|none",
            description = "Make this level's entry not present (PML4, PD, L2, pmd or a level number), to see the page fault. Default: none.")
    String faultAt;

    @Option(names = "--pages", paramLabel = "N", description = "Dataset pages for cow, 1 to " + CowScenarios.MAX_PAGES + " (default " + CowScenarios.DEFAULT_PAGES + ").")
    int pages = CowScenarios.DEFAULT_PAGES;

    @Option(names = "--workers", paramLabel = "N", converter = Counts.Workers.class,
            description = "DataLoader workers for cow, " + Counts.MIN_WORKERS + " to " + Counts.MAX_WORKERS + " (default " + CowScenarios.DEFAULT_WORKERS + ").")
    int workers = CowScenarios.DEFAULT_WORKERS;

    @Option(names = "--data", paramLabel = "list|array",
            description = "How the cow dataset is held: a Python list (refcounts write) or a numpy array (reads only). Default: list.")
    String data;

    /** True when --explain was given: the command explains instead of measuring. */
    public boolean requested() {
        return explain != null && !explain.isEmpty();
    }

    /** --all: print without waiting. */
    public boolean all() {
        return all;
    }

    public String topic() {
        return requested() ? explain.getFirst().trim().toLowerCase(Locale.ROOT) : null;
    }

    /**
     * The steps asked for.
     *
     * @param defaultLayout the machine's own layout (PageWalk.Layout.forMachine), used without --layout; null means x86-64-4
     * @throws IllegalArgumentException with one line naming the bad value and the allowed ones
     */
    public List<Step> steps(PageWalk.Layout defaultLayout) {
        if (!requested()) throw new IllegalArgumentException("no --explain topic: choose " + PAGEWALK + " or " + COW);
        String arg = explain.size() > 1 ? explain.get(1) : null;
        return switch (topic()) {
            case PAGEWALK -> PageWalk.steps(PageWalk.Options.parse(arg, layout, page, tlb, faultAt, defaultLayout));
            case COW -> {
                if (arg != null) throw new IllegalArgumentException("--explain cow takes no argument, got '" + arg + "': use --pages, --workers, --data");
                yield CowScenarios.dataloader(pages, workers, data == null ? CowScenarios.Data.LIST : CowScenarios.Data.parse(data));
            }
            default -> throw new IllegalArgumentException("unknown --explain topic '" + explain.getFirst() + "': choose " + PAGEWALK + " or " + COW);
        };
    }

    /** The --json form: the topic and every step. */
    public Map<String, Object> json(List<Step> steps) {
        return Maps.of("topic", topic(), "stepCount", steps.size(), "steps", steps.stream().map(Step::json).toList());
    }
}
