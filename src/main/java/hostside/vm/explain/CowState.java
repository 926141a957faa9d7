package hostside.vm.explain;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import hostside.vm.explain.CowMachine.Access;
import hostside.vm.explain.CowScenarios.Data;

/**
 * One step of the copy-on-write story ({@link CowScenarios}): the processes with their page
 * tables, this step's accesses and changed entries, the frames in use, and in the summary the two
 * ways of holding the data side by side. The fields' names and order are
 * {@code hostside vm --explain cow --json}'s.
 *
 * @param changed       the entries of a process this step changed (a fork changes the child's and main's)
 * @param comparison    the summary's two ways of holding the data, this story's first; empty before the summary
 * @param datasetPages  the summary's dataset in pages; null before it
 * @param processCount  the summary's processes, main and its workers; null before it
 * @param measuredBy    the summary's pointer to where hostside measures this on a real machine; null before it
 */
public record CowState(Data data, List<Access> accesses, List<PageRef> changed, long pageSizeBytes, List<Process> processes,
                       List<FrameUse> frames, int framesInUse, long memoryBytes, int peakFrames,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Peak> comparison,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Integer datasetPages,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Integer processCount,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String measuredBy) implements StepState {
    public static final String KIND = "cow";

    public CowState {
        accesses = List.copyOf(accesses);
        changed = List.copyOf(changed);
        processes = List.copyOf(processes);
        frames = List.copyOf(frames);
        comparison = comparison == null ? List.of() : List.copyOf(comparison);
    }

    @Override
    public String kind() {
        return KIND;
    }

    /** A page of a process whose entry this step changed. */
    public record PageRef(int pid, int page) {}

    /** A process with what /proc/PID/smaps_rollup would say (PSS rounded to a tenth of a byte), and its page table. */
    public record Process(int pid, String name, int pages, long rssBytes, double pssBytes, long ussBytes, List<Entry> pageTable) {
        public Process {
            pageTable = List.copyOf(pageTable);
        }
    }

    /** A page-table entry: the frame, the write bit, and how many processes map that frame. */
    public record Entry(int page, int frame, boolean writable, int mapcount) {}

    /** A physical frame in use and its mappers. */
    public record FrameUse(int frame, int mapcount) {}

    /** The peak of one way of holding the data. */
    public record Peak(Data data, int peakFrames, long peakMemoryBytes) {}

    /** Whether this is the summary, with its comparison of the two ways. */
    public boolean summary() {
        return !comparison.isEmpty();
    }

    public Optional<Process> process(int pid) {
        return processes.stream().filter(p -> p.pid() == pid).findFirst();
    }

    public long uss(int pid) {
        return process(pid).map(Process::ussBytes).orElse(0L);
    }

    public String name(int pid) {
        return process(pid).map(Process::name).orElse("process " + pid);
    }

    /** The dataset's pages: main's page table (main is the first process). */
    public long pageCount() {
        return processes.isEmpty() ? 0 : processes.getFirst().pages();
    }

    /** Whether this step started a process that the one before it did not have: a fork. */
    public boolean forkedSince(CowState prev) {
        return prev != null && processes.size() > prev.processes.size();
    }
}
