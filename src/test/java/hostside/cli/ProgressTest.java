package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import hostside.core.Stats;
import hostside.core.Unit;
import hostside.harness.Detail;
import hostside.harness.ProgressSink;
import hostside.harness.Result;
import hostside.harness.Runner;
import hostside.harness.Status;
import hostside.harness.TestCase;

/** The progress a Runner run of a few fake cases produces, as lines for a log and as a live line for a terminal. */
class ProgressTest {
    /** A case of a string target; {@code skip} non-null: it does not apply. */
    record Fake(String key, String skip) implements TestCase<String> {
        public String description() {
            return "fake " + key;
        }

        public Optional<String> notApplicable(String target) {
            return Optional.ofNullable(skip);
        }

        public Result run(String target) {
            if (key.equals("boom")) throw new IllegalStateException("no GPU");
            return Result.ok(this, Unit.GB_PER_S, Stats.of(1), "fake", (Detail) null);
        }
    }

    static final List<Fake> CASES = List.of(new Fake("alpha", null), new Fake("beta", "does not apply"), new Fake("boom", null));

    /** A clock that a test moves by hand: the figures on the line are then known without timing anything. */
    static final class Clock {
        final AtomicLong nanos = new AtomicLong(1_000_000_000L);

        long now() {
            return nanos.get();
        }
    }

    @Test
    void notOnATerminalEachCaseIsOneLineAsItStartsAndOneAsItEndsWithIOfN() {
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, false, new Clock()::now, 80)) {
            Runner.run(CASES, "gpu0", p.on("GPU0"));
        }
        List<String> lines = w.toString().lines().toList();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).startsWith("hostside: 1/3 alpha on GPU0: started (elapsed ");
        assertThat(lines.get(1)).startsWith("hostside: 1/3 alpha on GPU0: ok in ").contains("elapsed ").contains("left)");
        assertThat(lines.get(2)).startsWith("hostside: 2/3 beta on GPU0: not run (elapsed ");
        assertThat(lines.get(3)).startsWith("hostside: 3/3 boom on GPU0: started");
        assertThat(lines.get(4)).startsWith("hostside: 3/3 boom on GPU0: failed in ");
        // a log, not a terminal: no carriage return, no escape code
        assertThat(w.toString()).doesNotContain("\r").doesNotContain("\u001b");
    }

    @Test
    void theReportsDrillIsTheOuterLevelOfEachLine() {
        Clock c = new Clock();
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, false, c::now, 80)) {
            p.drill("vm", 2, 5);
            p.step("writing the 64 MiB test file");
            c.nanos.addAndGet(3_000_000_000L);
            Runner.run(CASES.subList(0, 1), "x", p);
        }
        assertThat(w.toString().lines().toList()).satisfiesExactly(
                l -> assertThat(l).isEqualTo("hostside: drill 2 of 5: vm (elapsed 0.0 s)"),
                l -> assertThat(l).isEqualTo("hostside: [vm 2/5] writing the 64 MiB test file: 3.0 s"),
                l -> assertThat(l).startsWith("hostside: [vm 2/5] 1/1 alpha: started"),
                l -> assertThat(l).startsWith("hostside: [vm 2/5] 1/1 alpha: ok in "));
    }

    @Test
    void onATerminalOneLineIsRewrittenInPlaceAndClearedAtTheEnd() {
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, true, new Clock()::now, 80)) {
            Runner.run(CASES, "gpu0", p);
        }
        String s = w.toString();
        assertThat(s).doesNotContain("\n");
        // each redraw: back to the start of the line, clear it, write it again
        assertThat(s.split("\r\u001b\\[K", -1)).hasSizeGreaterThanOrEqualTo(6);
        assertThat(s).contains("hostside: alpha (1 of 3)").contains("hostside: boom (3 of 3)");
        assertThat(s).as("cleared at the end").endsWith("\r\u001b[K");
    }

    @Test
    void theLiveLineSaysWhatRunsIOfNElapsedAndWhatIsLeft() {
        Clock c = new Clock();
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, true, c::now, 120)) {
            p.drill("cpu", 3, 5);
            p.accept(new ProgressSink.CaseStarted("syscall", 1, 4));
            c.nanos.addAndGet(2_000_000_000L);
            p.accept(new ProgressSink.CaseEnded("syscall", 1, 4, Status.OK, 2_000_000_000L));
            p.accept(new ProgressSink.CaseStarted("context_switch", 2, 4));
            c.nanos.addAndGet(500_000_000L);
            // 2 s per case so far, 3 cases not ended, 0.5 s into the current one: 5.5 s left
            assertThat(p.liveLine()).isEqualTo("hostside: [cpu 3/5] context_switch (2 of 4), 2.5 s, about 5.5 s left");
        }
    }

    @Test
    void aLiveLineWiderThanTheTerminalIsCutSoItNeverWraps() {
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, true, new Clock()::now, 40)) {
            p.step("writing the test file of a very long name that goes on and on");
            assertThat(p.liveLine()).isEqualTo("hostside: writing the test..., 0.0 s");
        }
    }

    /** 80 columns, the least a terminal has: the case gives way at a word, the counts and times stay whole. */
    @Test
    void onEightyColumnsTheDescriptionIsShortenedAtAWordAndTheFiguresStay() {
        Clock c = new Clock();
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, true, c::now, 80)) {
            p.drill("report", 4, 6);
            p.accept(new ProgressSink.CaseStarted("a", 1, 12));
            c.nanos.addAndGet(3_000_000_000L);
            p.accept(new ProgressSink.CaseEnded("a", 1, 12, Status.OK, 3_000_000_000L));
            p.accept(new ProgressSink.CaseStarted("host_to_device_memcpy_ce_sweep_pageable on GPU0 (NVIDIA H200)", 2, 12));
            c.nanos.addAndGet(1_000_000_000L);
            String line = p.liveLine();
            // 3 s learned from the first case: 2 s of this one and 10 more of 3 s
            assertThat(line).hasSizeLessThan(80).isEqualTo("hostside: [report 4/6] host_to_device... (2 of 12), 4.0 s, about 32 s left");
        }
    }

    @Test
    void clearingBeforeOtherOutputLeavesNoLiveLineBehind() {
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, true, new Clock()::now, 80)) {
            p.step("writing the 1 GiB test file");
            p.clear();
            int after = w.getBuffer().length();
            p.clear(); // nothing shown: nothing to clear
            assertThat(w.getBuffer().length()).isEqualTo(after);
            assertThat(w.toString()).endsWith("\r\u001b[K");
        }
    }

    @Test
    void aStepThatEndsAtOnceLeavesNoLineSoABadDirIsStillOneLine() {
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, false, new Clock()::now, 80)) {
            p.step("writing the 64 MiB test file");
            // the file cannot be created: the command's error follows, alone
        }
        assertThat(w.toString()).isEmpty();
    }

    @Test
    void aStepStillUnderWayAtTheEndIsSaidWithItsTime() {
        Clock c = new Clock();
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, false, c::now, 80)) {
            p.step("sampling PID 42 for 10 s");
            c.nanos.addAndGet(10_000_000_000L);
        }
        assertThat(w.toString()).isEqualTo("hostside: sampling PID 42 for 10 s: 10 s\n");
    }

    @Test
    void durationsAreShortAndLocaleFree() {
        assertThat(Progress.duration(4_240_000_000L)).isEqualTo("4.2 s");
        assertThat(Progress.duration(42_400_000_000L)).isEqualTo("42 s");
        assertThat(Progress.duration(185_000_000_000L)).isEqualTo("3m05s");
    }

    @Test
    void casesThatDoNotRunDoNotPullTheAverageDown() {
        Clock c = new Clock();
        StringWriter w = new StringWriter();
        try (Progress p = new Progress(w, false, c::now, 80)) {
            p.accept(new ProgressSink.CaseEnded("a", 1, 3, Status.OK, 4_000_000_000L));
            p.accept(new ProgressSink.CaseEnded("b", 2, 3, Status.NOT_RUN, 0));
            // one case of 4 s ran; one left
            assertThat(p.left()).isEqualTo(OptionalLong.of(4_000_000_000L));
        }
    }
}
