package hostside.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import hostside.io.measure.HugePage;
import hostside.io.measure.IoTarget;
import hostside.io.measure.ReadTest;
import hostside.io.measure.WriteTest;

/**
 * bench/harness/scenarios/io.py's decisions, run by python3 on the anchors hostside names: which job
 * of fio's JSON is the measured one, how the bench names a job, which jobs it caches first, and which
 * of hostside's figures it sets beside fio's (the one counted as fio counts).
 */
class BenchIoScenarioTest {
    static final IoTarget TARGET = new IoTarget(Path.of("/var/tmp"), "ext4", () -> Path.of("/var/tmp/f"), 2L << 30, 1L << 30, 4096,
            1_000_000_000L, null, null, null);

    /** What the Python prints for {@code code}, run with bench/ on its path and the io scenario imported as {@code io}. */
    static String python(String code) throws Exception {
        String script = "import json, sys\nsys.path.insert(0, 'bench')\nfrom pathlib import Path\nfrom harness.scenarios import io\n" + code;
        ProcessBuilder pb = new ProcessBuilder("python3", "-c", script).redirectErrorStream(true);
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1"); // no __pycache__ left in the checkout
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.strip();
    }

    static String pyList(String anchor) {
        StringBuilder s = new StringBuilder("[");
        for (String a : anchor.split(" ")) s.append("'").append(a).append("', ");
        return s.append("]").toString();
    }

    static String job(String anchor) {
        return pyList(anchor.substring("fio ".length()));
    }

    @Test
    void aReadJobIsNamedAfterItsFigureAndTheWriteJobsKeepTheirNames() throws Exception {
        String read = "fio " + new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.COLD, ReadTest.Engine.PSYNC, 1).fioOptions(TARGET);
        String write = new WriteTest(false).fio(TARGET);
        String out = python("print(' '.join(io.fio_argv(['fio'], Path('/d/f'), " + job(read) + ", 'seq_read_cold_qd1')))\n"
                + "print(' '.join(io.fio_argv(['fio'], Path('/d/w'), " + job(write) + ", 'write_buffered')))\n");
        List<String> lines = out.lines().toList();
        assertThat(lines.get(0)).startsWith("fio --filename=/d/f --output-format=json --rw=read ").endsWith(" --name=seq_read_cold_qd1");
        assertThat(lines.get(1)).as("the file applies to the warm-up job and the measured one; no third name")
                .startsWith("fio --filename=/d/w --output-format=json --rw=write ").endsWith("--name=write_buffered --stonewall --end_fsync=0")
                .contains("--name=warmup --end_fsync=1 --unlink=1");
    }

    @Test
    void theMeasuredJobIsTheLastOfFiosJson() throws Exception {
        String json = "{\"jobs\": [{\"jobname\": \"warmup\", \"write\": {\"bw_bytes\": 1}, \"read\": {}},"
                + " {\"jobname\": \"write_buffered\", \"write\": {\"bw_bytes\": 5000000000}, \"read\": {}}]}";
        String out = python("print(io.measured_side('" + json + "', True)['bw_bytes'])\n"
                + "print(io.measured_side('fio: error', False))\nprint(io.measured_side('{\"jobs\": []}', False))\n");
        assertThat(out.lines().toList()).containsExactly("5000000000", "None", "None");
    }

    @Test
    void theWarmJobsAreCachedFirstAndNoOthers() throws Exception {
        StringBuilder code = new StringBuilder();
        for (var c : ReadTest.all()) {
            ReadTest t = (ReadTest) c;
            code.append("print('").append(t.key()).append("', io.warm(").append(pyList(t.fioOptions(TARGET))).append("))\n");
        }
        code.append("print('old warm', io.warm(['--rw=read', '--direct=0', '--invalidate=0']))\n");
        code.append("print('write', io.is_write(").append(job(new WriteTest(true).fio(TARGET))).append("))\n");
        List<String> lines = python(code.toString()).lines().toList();
        assertThat(lines).contains("seq_read_warm_qd1 True", "rand_read_warm_qd1 True", "seq_read_cold_qd1 False",
                "seq_read_direct_uring_qd32 False", "rand_read_direct_qd1 False", "old warm True", "write True");
        assertThat(lines.stream().filter(l -> l.endsWith(" True"))).as("the two warm cases, an older report's warm job, the write").hasSize(4);
    }

    @Test
    void hostsidesFigureBesideFiosIsItsOverall() throws Exception {
        String out = python("""
                doc = {'results': [{'key': 'write_buffered', 'detail': {'overall': 5.9}}, {'key': 'seq_read_warm_qd1', 'detail': {}}]}
                print(io.overall(doc, 'write_buffered', 6.2))
                print(io.overall(doc, 'seq_read_warm_qd1', 9.6))
                print(io.overall(None, 'write_buffered', 6.2))
                """);
        assertThat(out.lines().toList()).as("an older report without detail.overall: the median").containsExactly("5.9", "9.6", "6.2");
    }

    @Test
    void resultsCarryTheOverallTheBenchReads() {
        // the key the bench reads: a typed detail's component, written into --json under its name
        assertThat(Arrays.stream(ReadTest.ReadDetail.class.getRecordComponents()).map(RecordComponent::getName)).contains("overall");
        assertThat(Arrays.stream(WriteTest.WriteDetail.class.getRecordComponents()).map(RecordComponent::getName)).contains("overall");
    }

    @Test
    void aHugePageJobHasItsPagesCountedAndAnyOtherNone() throws Exception {
        IoTarget huge = new IoTarget(Path.of("/var/tmp"), "ext4", () -> Path.of("/var/tmp/f"), 2L << 30, 1L << 30, 4096, 1_000_000_000L, null, null,
                new HugePage(2L << 20));
        String qd32 = "fio " + new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.DIRECT, ReadTest.Engine.IO_URING, 32).fioOptions(huge);
        String qd1 = "fio " + new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.DIRECT, ReadTest.Engine.PSYNC, 1).fioOptions(huge);
        String cold = "fio " + new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.COLD, ReadTest.Engine.PSYNC, 1).fioOptions(huge);
        String out = python("print(io.huge_pages_needed(" + job(qd32) + "), io.huge_pages_needed(" + job(qd1) + "), io.huge_pages_needed("
                + job(cold) + "))\n"
                + "import tempfile\nm = Path(tempfile.mkdtemp()) / 'meminfo'\n"
                + "m.write_text('HugePages_Total:      20\\nHugePages_Free:       18\\nHugepagesize:       2048 kB\\n')\n"
                + "with io.HugePages(17, m) as short: print(short)\n"
                + "with io.HugePages(0, Path('/nonexistent')) as short: print(short)\n"
                // a pool the kernel would not grow: the job is refused, and the pool is put back as it was
                + "nr = m.parent / 'nr_hugepages'\nnr.write_text('3')\n"
                + "m.write_text('HugePages_Total:       3\\nHugePages_Free:        0\\n')\n"
                + "h = io.HugePages(2, m)\nh.NR = nr\n"
                + "with h as short: print(short, nr.read_text())\n"
                + "print(nr.read_text())\n");
        assertThat(out.lines().toList()).as("fio's buffers as fio 3.42 takes them: 18 pages at depth 32, 2 at depth 1; none without shmhuge;"
                + " enough free: nothing reserved; none needed: nothing read").containsExactly("18 2 0", "None", "None",
                "the kernel reserved 0 free huge pages of the 2 fio's --iomem=shmhuge job needs 3", "3");
    }

    /**
     * A one-pass fio job (no --time_based) is run as many times as the report's figure has samples, at most five, and the
     * run of median bandwidth stands beside the figure; a time-based job once; a failed run fails the job.
     */
    @Test
    void aOnePassJobIsRunAsOftenAsItsFigureHasPassesAndItsMedianRunTaken() throws Exception {
        String cold = "fio " + new ReadTest(ReadTest.Pattern.SEQUENTIAL, ReadTest.Cache.COLD, ReadTest.Engine.PSYNC, 1).fioOptions(TARGET);
        String timed = "fio " + new ReadTest(ReadTest.Pattern.RANDOM, ReadTest.Cache.DIRECT, ReadTest.Engine.PSYNC, 1).fioOptions(TARGET);
        String write = new WriteTest(true).fio(TARGET);
        String out = python("from harness.scenarios import report_peers as rp\n"
                + "def fig(n): return rp.Fig('k', 's', 1.0, 'GB/s', None, '', '', 'k', {}, n)\n"
                + "print(io.one_pass(" + job(cold) + "), io.one_pass(" + job(timed) + "), io.one_pass(" + job(write) + "))\n"
                + "print(rp.fio_passes(" + job(cold) + ", [fig(3)]), rp.fio_passes(" + job(write) + ", [fig(5), fig(9)]), rp.fio_passes("
                + job(timed) + ", [fig(5)]), rp.fio_passes(" + job(cold) + ", []))\n"
                + "runs = [({'bw_bytes': 3}, None), ({'bw_bytes': 1}, None), ({'bw_bytes': 2}, None)]\n"
                + "print(io.median_run(runs)[0]['bw_bytes'], io.median_run(runs[:2])[0]['bw_bytes'], io.median_run([({'iops': 7}, None)])[0]['iops'])\n"
                + "print(io.median_run(runs + [(None, 'fio: error')]), io.median_run([]))\n");
        assertThat(out.lines().toList()).containsExactly("True False True", "3 5 1 1", "2 1 7", "(None, 'fio: error') (None, 'no run')");
    }
}
