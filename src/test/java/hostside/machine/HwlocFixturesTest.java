package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import hostside.Fixtures;
import hostside.core.CpuSet;
import hostside.fs.FsRoot;

/**
 * Every machine of hwloc's test suite, read by hostside, agrees with what lstopo printed for it:
 * packages, cores, threads, NUMA node ids and memory, and the number and sizes of L3 caches.
 */
class HwlocFixturesTest {

    /** One .test file: its source tarball, expected output and the options or environment it sets. */
    record Case(String name, Path source, Path target, List<String> options, List<String> env) {
        @Override
        public String toString() {
            return name;
        }

        boolean keepsGpuNodes() {
            return env.stream().anyMatch(e -> e.startsWith("HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES=1"));
        }
    }

    /**
     * Options and environment that change what lstopo shows, and why each one does not change
     * the figures compared here (a case with anything else fails, so nothing is skipped silently).
     */
    static final Map<String, String> HARMLESS = new LinkedHashMap<>();
    static {
        HARMLESS.put("--no-icaches", "hides L1i caches only; L3, cores and NUMA nodes are compared");
        HARMLESS.put("--whole-io", "adds I/O objects only");
        HARMLESS.put("HWLOC_SHOW_ERRORS=none", "silences hwloc's warnings only");
        HARMLESS.put("export HWLOC_SHOW_ERRORS", "silences hwloc's warnings only");
        HARMLESS.put("HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES=1", "keeps GPU-memory NUMA nodes, as hostside does");
        HARMLESS.put("export HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES", "keeps GPU-memory NUMA nodes, as hostside does");
    }

    /**
     * Cases where hostside deliberately reports what /sys says and lstopo does not, with the
     * reason; the expected figures are adjusted to what the kernel's files hold, and every other
     * figure of the case is still compared.
     */
    static final Map<String, java.util.function.UnaryOperator<HwlocExpected>> DIFFERS = Map.of();

    static Stream<Case> cases() throws IOException {
        List<Case> cases = new ArrayList<>();
        try (var files = Files.list(Fixtures.hwloc())) {
            for (Path test : files.filter(p -> p.toString().endsWith(".test")).sorted().toList()) {
                String source = null, target = null;
                List<String> options = new ArrayList<>(), env = new ArrayList<>();
                for (String line : Files.readAllLines(test)) {
                    String[] kv = line.split(":", 2);
                    if (line.startsWith("#") || kv.length < 2) continue;
                    String v = kv[1].strip();
                    switch (kv[0].strip()) {
                        case "source" -> source = v;
                        case "target" -> target = v;
                        case "options" -> options.addAll(List.of(v.split("\\s+")));
                        case "env" -> env.add(v);
                        default -> throw new IllegalStateException(test + ": unknown key " + kv[0]);
                    }
                }
                String name = test.getFileName().toString().replace(".test", "");
                cases.add(new Case(name, Fixtures.hwloc().resolve(source), Fixtures.hwloc().resolve(target), options, env));
            }
        }
        return cases.stream();
    }

    @Test
    void allCasesAreFound() throws IOException {
        assertThat(cases().count()).isGreaterThanOrEqualTo(27);
    }

    /** The same machine unpacked into a folder (as a user passes --root DIR) reads as its tarball. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aFolderReadsAsItsTarball(Case c, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Process tar = new ProcessBuilder("tar", "-xjf", c.source().toString(), "-C", dir.toString())
                .redirectErrorStream(true).start();
        String out = new String(tar.getInputStream().readAllBytes());
        assertThat(tar.waitFor()).as("tar -xjf %s: %s", c.source(), out).isZero();
        List<String> fromTar = new ArrayList<>(), fromDir = new ArrayList<>();
        Topology t = new TopologyReader(FsRoot.open(c.source().toString()), fromTar).read();
        Topology d = new TopologyReader(FsRoot.open(dir.toString()), fromDir).read();
        assertThat(d).isEqualTo(t);
        assertThat(fromDir).isEqualTo(fromTar);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void agreesWithLstopo(Case c) throws IOException {
        for (String o : c.options()) assertThat(HARMLESS).as("option %s of %s", o, c.name()).containsKey(o);
        for (String e : c.env()) assertThat(HARMLESS).as("environment %s of %s", e, c.name()).containsKey(e);

        HwlocExpected want = DIFFERS.getOrDefault(c.name(), x -> x).apply(HwlocExpected.read(c.target()));
        List<String> unknowns = new ArrayList<>();
        Topology got = new TopologyReader(FsRoot.open(c.source().toString()), unknowns).read();

        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(got.packages()).as("packages").isEqualTo(want.packages());
        soft.assertThat(got.cores()).as("cores").isEqualTo(want.cores());
        soft.assertThat(got.threads()).as("threads (PUs)").isEqualTo(want.pus());

        // Without HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES, lstopo hides GPU-memory nodes; hostside lists them.
        Map<Integer, Long> nodes = new LinkedHashMap<>();
        for (Topology.NumaNode n : got.numaNodes()) {
            if (!n.gpuMemory() || c.keepsGpuNodes()) nodes.put(n.id(), n.memTotalBytes());
        }
        soft.assertThat(nodes.keySet()).as("NUMA node ids").containsExactlyInAnyOrderElementsOf(want.nodes().keySet());
        for (var e : want.nodes().entrySet()) {
            Long mine = nodes.get(e.getKey());
            if (e.getValue() == null || mine == null) continue;
            soft.assertThat(e.getValue().agrees(mine))
                    .as("memory of node %d: hostside %d bytes, hwloc %d (+-%d)", e.getKey(), mine,
                            e.getValue().bytes(), Math.max(e.getValue().bytes() / 100, e.getValue().halfUnit()))
                    .isTrue();
        }
        // hwloc shows a cache whose size the kernel does not give with size 0
        List<Long> l3 = got.caches().stream().filter(k -> k.level() == 3)
                .map(k -> k.sizeBytes() == null ? 0L : k.sizeBytes()).sorted().toList();
        List<HwlocExpected.Size> wantL3 = want.l3Sizes().stream().sorted(java.util.Comparator.comparing(HwlocExpected.Size::bytes)).toList();
        soft.assertThat(l3).as("number of L3 caches").hasSameSizeAs(wantL3);
        for (int i = 0; i < Math.min(l3.size(), wantL3.size()); i++) {
            soft.assertThat(wantL3.get(i).agrees(l3.get(i)))
                    .as("L3 size: hostside %d bytes, hwloc %d", l3.get(i), wantL3.get(i).bytes()).isTrue();
        }

        // hwloc names CPU kinds on hybrid machines: ours must split the CPUs the same way.
        if (want.cpuKinds().size() > 1) {
            List<String> theirs = want.cpuKinds().values().stream()
                    .map(m -> CpuSet.parseMask(m.replace("0x", "")).toList()).sorted().toList();
            List<String> ours = got.coreKinds().stream().map(k -> k.cpus().toList()).sorted().toList();
            soft.assertThat(ours).as("core kinds").isEqualTo(theirs);
        }
        soft.assertAll();
    }
}
