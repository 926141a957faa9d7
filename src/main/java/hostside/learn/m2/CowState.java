package hostside.learn.m2;

import java.util.List;
import java.util.Optional;

import hostside.core.Json;
import hostside.vm.explain.CowScenarios;
import hostside.vm.explain.Step;

/**
 * One step of the copy-on-write story ({@link CowScenarios}) as typed records: the step's state
 * is the plain data the terminal and {@code --json} print, and it is read here once, by the one
 * JSON mapper, which refuses a key no record names, so a key misspelt on either side fails the
 * stepper's tests instead of drawing a 0.
 *
 * @param comparison    the summary's two ways of holding the data, this story's first; empty before the summary
 * @param datasetPages  the summary's dataset in pages; null before it
 * @param processCount  the summary's processes, main and its workers; null before it
 */
record CowState(String kind, String data, List<Access> accesses, List<PageRef> changed, long pageSizeBytes, List<Process> processes,
                List<FrameUse> frames, long framesInUse, long memoryBytes, long peakFrames, List<Peak> comparison, Integer datasetPages,
                Integer processCount, String measuredBy) {
    CowState {
        accesses = accesses == null ? List.of() : List.copyOf(accesses);
        changed = changed == null ? List.of() : List.copyOf(changed);
        processes = processes == null ? List.of() : List.copyOf(processes);
        frames = frames == null ? List.of() : List.copyOf(frames);
        comparison = comparison == null ? List.of() : List.copyOf(comparison);
    }

    /** One access of a step (CowMachine.Access): its outcome as the state writes it, "read", "wrote", "copied", "reused". */
    record Access(String op, int pid, int page, String outcome, int frameBefore, int frameAfter, int mapcountBefore) {
        boolean copied() {
            return outcome.equals("copied");
        }

        boolean incref() {
            return op.equals("incref");
        }
    }

    /** A page of a process whose entry this step changed. */
    record PageRef(int pid, int page) {}

    /** A process with what /proc/PID/smaps_rollup would say, and its page table. */
    record Process(int pid, String name, int pages, long rssBytes, double pssBytes, long ussBytes, List<Entry> pageTable) {
        Process {
            pageTable = List.copyOf(pageTable);
        }
    }

    /** A page-table entry: the frame, the write bit, and how many processes map that frame. */
    record Entry(int page, int frame, boolean writable, int mapcount) {}

    /** A physical frame in use and its mappers. */
    record FrameUse(int frame, int mapcount) {}

    /** The peak of one way of holding the data: "list" or "array". */
    record Peak(String data, long peakFrames, long peakMemoryBytes) {}

    static CowState of(Step s) {
        return Json.MAPPER.convertValue(s.state(), CowState.class);
    }

    /** Whether this is the summary, with its comparison of the two ways. */
    boolean summary() {
        return !comparison.isEmpty();
    }

    Optional<Process> process(int pid) {
        return processes.stream().filter(p -> p.pid() == pid).findFirst();
    }

    long uss(int pid) {
        return process(pid).map(Process::ussBytes).orElse(0L);
    }

    String name(int pid) {
        return process(pid).map(Process::name).orElse("process " + pid);
    }

    /** The dataset's pages: main's page table (main is the first process). */
    long pageCount() {
        return processes.isEmpty() ? 0 : processes.getFirst().pages();
    }

    /** Whether this step started a process that the one before it did not have: a fork. */
    boolean forkedSince(CowState prev) {
        return prev != null && processes.size() > prev.processes.size();
    }
}
