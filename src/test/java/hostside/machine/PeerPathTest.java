package hostside.machine;

import static hostside.machine.NvlinkBoxes.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Finding;
import hostside.core.Json;
import hostside.core.Severity;
import hostside.fs.FsRoot;
import hostside.gpu.nvml.NvmlP2p;
import hostside.gpu.peer.PeerAccess;
import hostside.report.ReportBuilder;
import hostside.report.ReportMarkdown;

/** The driver's peer answers and the switch ports' ACS, joined to the matrix's pairs by PCI address. */
class PeerPathTest {
    @TempDir
    Path root;

    FsRoot fs() throws IOException {
        Files.createDirectories(root.resolve("sys/bus/pci/devices"));
        return FsRoot.open(root.toString());
    }

    void config(String address, byte[] bytes) throws IOException {
        Path p = root.resolve("sys/bus/pci/devices/" + address + "/config");
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
    }

    /** Every ordered pair of {@code addresses}, in CUDA's order, allowed unless listed in {@code refused} as "from>to". */
    static List<PeerAccess> access(List<String> addresses, boolean atomics, String... refused) {
        List<PeerAccess> out = new ArrayList<>();
        for (int a = 0; a < addresses.size(); a++) {
            for (int b = 0; b < addresses.size(); b++) {
                if (a == b) continue;
                boolean no = List.of(refused).contains(a + ">" + b);
                out.add(new PeerAccess(a, b, addresses.get(a), addresses.get(b), !no, atomics ? 0 : 1, !no, atomics && !no, !no, Map.of()));
            }
        }
        return out;
    }

    static List<String> gpuAddresses(List<PciDevice> pci) {
        return pci.stream().filter(PciDevice::isGpu).map(PciDevice::address).toList();
    }

    @Test
    void anHgxBoardWithEveryPairAllowedIsOneLineAndNoFinding() throws IOException {
        GpuMatrix plain = GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(-1, 0, true), null);
        GpuMatrix m = plain.withPeers(PeerPath.of(fs(), plain, hgxPci(), access(gpuAddresses(hgxPci()), true), List.of()));
        assertThat(m.peers()).hasSize(28).allSatisfy(p -> {
            assertThat(p.aToB()).isTrue();
            assertThat(p.bToA()).isTrue();
            assertThat(p.nativeAtomics()).isTrue();
            assertThat(p.acsRedirecting()).isEmpty();
        });
        assertThat(PeerPath.lines(m.peers())).containsExactly(
                "P2P peer access both ways, native atomics: GPU0-GPU1, GPU0-GPU2, GPU0-GPU3, GPU0-GPU4, GPU0-GPU5, GPU0-GPU6 and 22 more");
        assertThat(m.findings()).isEmpty();
    }

    @Test
    void anNvlinkPairTheDriverKeepsApartIsBad() throws IOException {
        GpuMatrix plain = GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(-1, 0, true), null);
        // CUDA's ordinal 2 is the third GPU in PCI order here; refusing 2>5 must land on GPU2-GPU5
        GpuMatrix m = plain.withPeers(PeerPath.of(fs(), plain, hgxPci(), access(gpuAddresses(hgxPci()), true, "2>5"), List.of()));
        PeerPath p = m.peers().stream().filter(x -> x.pair().equals("GPU2-GPU5")).findFirst().orElseThrow();
        assertThat(p.aToB()).isFalse();
        assertThat(p.bToA()).isTrue();
        assertThat(p.nativeAtomics()).as("not both ways").isFalse();
        assertThat(m.findings()).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.BAD);
            assertThat(f.text()).startsWith("GPU2-GPU5: NVLink joins them but peer access is refused (cuDeviceCanAccessPeer is 0)");
            assertThat(f.id()).isEqualTo(PeerRules.NVLINK_REFUSED.id());
            assertThat(f.fix()).contains("fabric manager");
        });
        assertThat(PeerPath.lines(m.peers())).contains("P2P peer access one way only: GPU2-GPU5");
    }

    @Test
    void cudaOrderIsNotPciOrder() throws IOException {
        // CUDA puts the fastest GPU first by default: ordinal 0 may be the last PCI address
        List<String> reversed = new ArrayList<>(gpuAddresses(pcieOnlyPci()));
        java.util.Collections.reverse(reversed);
        GpuMatrix plain = GpuMatrix.of(pcieOnlyPci(), nodes(2), pcieOnlyNvml(), null);
        GpuMatrix m = plain.withPeers(PeerPath.of(fs(), plain, pcieOnlyPci(), access(reversed, false, "0>1", "1>0"), List.of()));
        // ordinals 0 and 1 are GPU5 and GPU4 in PCI order
        assertThat(m.peers().stream().filter(PeerPath::refused).map(PeerPath::pair)).containsExactly("GPU4-GPU5");
        assertThat(m.findings()).extracting(Finding::text).anySatisfy(t -> assertThat(t)
                .startsWith("GPU4-GPU5: no peer access (cuDeviceCanAccessPeer is 0)").contains("staged_ce"));
        assertThat(PeerPath.lines(m.peers())).contains("P2P no peer access (copies staged through host memory): GPU4-GPU5");
    }

    @Test
    void aSwitchPortRedirectingPeerRequestsIsAFindingForThePairsUnderIt() throws IOException {
        // pcieOnly: GPU0 under 02:08.0, GPU1 under 02:10.0, GPU2 under 02:18.0 -> 05:00.0 -> 06:00.0, all below switch 01:00.0
        FsRoot fs = fs();
        config("0000:02:08.0", PciAcsTest.config(true, PciAcs.SOURCE_VALIDATION));
        config("0000:02:10.0", PciAcsTest.config(true, PciAcs.P2P_REQUEST_REDIRECT | PciAcs.P2P_COMPLETION_REDIRECT));
        config("0000:02:18.0", PciAcsTest.config(false, 0));
        config("0000:05:00.0", PciAcsTest.config(false, 0));
        config("0000:06:00.0", PciAcsTest.config(false, 0));
        GpuMatrix plain = GpuMatrix.of(pcieOnlyPci(), nodes(2), pcieOnlyNvml(), null);
        GpuMatrix m = plain.withPeers(PeerPath.of(fs, plain, pcieOnlyPci(), List.of(), List.of()));
        assertThat(m.peers().stream().filter(p -> !p.acsRedirecting().isEmpty()).map(PeerPath::pair))
                .containsExactly("GPU0-GPU1", "GPU1-GPU2");
        assertThat(m.peers()).allSatisfy(p -> assertThat(p.aToB()).as("the driver was not asked").isNull());
        assertThat(PeerPath.lines(m.peers())).isEmpty();
        assertThat(m.notes()).noneMatch(n -> n.startsWith("ACS"));
        assertThat(m.findings()).extracting(Finding::text).anySatisfy(t -> assertThat(t)
                .startsWith("GPU0-GPU1, GPU1-GPU2 share a PCIe switch, but ACS P2P Request Redirect is on at 0000:02:10.0"));
    }

    @Test
    void portsReadShortLeaveANoteNotAFinding() throws IOException {
        FsRoot fs = fs();
        for (String port : List.of("0000:02:08.0", "0000:02:10.0", "0000:02:18.0", "0000:05:00.0", "0000:06:00.0")) {
            config(port, new byte[64]); // what a user who is not root reads
        }
        GpuMatrix plain = GpuMatrix.of(pcieOnlyPci(), nodes(2), pcieOnlyNvml(), null);
        GpuMatrix m = plain.withPeers(PeerPath.of(fs, plain, pcieOnlyPci(), List.of(), List.of()));
        assertThat(m.notes()).anySatisfy(n -> assertThat(n).startsWith("ACS of the switch ports between GPUs not read (0000:02:08.0:")
                .contains("run as root"));
        assertThat(m.findings()).noneMatch(f -> f.text().contains("ACS"));
        // pairs not under one switch are not asked: their traffic reaches the root complex anyway
        assertThat(m.peers().stream().filter(p -> p.acsUnknown() != null).map(PeerPath::pair))
                .containsExactly("GPU0-GPU1", "GPU0-GPU2", "GPU1-GPU2");
    }

    /** NVML's answer for every ordered pair of {@code addresses}: all OK, except the pairs in {@code no} (as "a>b") get {@code word} for reads and writes. */
    static List<NvmlP2p> nvml(List<String> addresses, String word, String... no) {
        List<NvmlP2p> out = new ArrayList<>();
        for (int a = 0; a < addresses.size(); a++) {
            for (int b = 0; b < addresses.size(); b++) {
                if (a == b) continue;
                String rw = List.of(no).contains(a + ">" + b) ? word : "OK";
                Map<String, String> status = new java.util.LinkedHashMap<>();
                status.put("read", rw);
                status.put("write", rw);
                status.put("nvlink", "NS");
                status.put("atomics", rw);
                status.put("pci", rw);
                out.add(new NvmlP2p(a, b, addresses.get(a), addresses.get(b), status, List.of()));
            }
        }
        return out;
    }

    @Test
    void nvmlNamesWhyAPairHasNoP2pWithoutCuda() throws IOException {
        // pcieOnly: GPU3 on its own root port, GPU4 on another host bridge; the chipset will not forward between them
        List<String> gpus = gpuAddresses(pcieOnlyPci());
        GpuMatrix plain = GpuMatrix.of(pcieOnlyPci(), nodes(2), pcieOnlyNvml(), null);
        GpuMatrix m = plain.withPeers(PeerPath.of(fs(), plain, pcieOnlyPci(), List.of(), nvml(gpus, "CNS", "3>4", "4>3")));
        PeerPath p = m.peers().stream().filter(x -> x.pair().equals("GPU3-GPU4")).findFirst().orElseThrow();
        assertThat(p.aToB()).as("CUDA not asked").isNull();
        assertThat(p.nvml()).containsEntry("read", "CNS").containsEntry("nvlink", "NS");
        assertThat(p.blocked()).isTrue();
        assertThat(PeerPath.lines(m.peers())).contains("P2P NVML read CNS, write CNS, nvlink NS, atomics CNS, pci CNS: GPU3-GPU4");
        assertThat(m.findings()).extracting(Finding::text).anySatisfy(t -> assertThat(t)
                .startsWith("GPU3-GPU4 (CNS): no peer access (NVML's P2P status for reads or writes is not OK)")
                .endsWith("NVML: CNS: the chipset does not support it (the root complex, ACS or a BIOS setting)"));
    }

    @Test
    void bothSourcesAndOneWayAnswersAreKeptApart() throws IOException {
        List<String> gpus = gpuAddresses(hgxPci());
        GpuMatrix plain = GpuMatrix.of(hgxPci(), nodes(2), hgxNvml(-1, 0, true), null);
        // CUDA refuses 0>1 and NVML says TNS for 0>1 only
        GpuMatrix m = plain.withPeers(PeerPath.of(fs(), plain, hgxPci(), access(gpus, true, "0>1"), nvml(gpus, "TNS", "0>1")));
        PeerPath p = m.peers().getFirst();
        assertThat(p.pair()).isEqualTo("GPU0-GPU1");
        assertThat(p.nvml()).containsEntry("read", "TNS one way, OK the other");
        assertThat(p.nvmlBlock()).isEqualTo("TNS");
        // the other way round: the refusal stands whichever way NVML gives it
        PeerPath reversed = new PeerPath("GPU0-GPU1", null, null, null, null, null, List.of(), null, Map.of("read", "OK"), Map.of("read", "CNS"));
        assertThat(reversed.nvmlBlock()).isEqualTo("CNS");
        assertThat(reversed.nvml()).containsExactly(Map.entry("read", "OK one way, CNS the other"));
        assertThat(m.findings()).singleElement().satisfies(f -> assertThat(f.text())
                .startsWith("GPU0-GPU1 (TNS): NVLink joins them but peer access is refused (cuDeviceCanAccessPeer is 0; NVML's P2P status is not OK)")
                .contains("NVML: TNS: the topology does not support it"));
        assertThat(PeerPath.lines(m.peers())).contains(
                "P2P peer access both ways, native atomics; NVML read OK, write OK, nvlink NS, atomics OK, pci OK: GPU0-GPU2, GPU0-GPU3, GPU0-GPU4,"
                        + " GPU0-GPU5, GPU0-GPU6, GPU0-GPU7 and 21 more");
    }

    @Test
    void theReportShowsThePathsFromItsJsonAndReadsOlderJson() throws Exception {
        List<String> gpus = gpuAddresses(pcieOnlyPci());
        GpuMatrix plain = GpuMatrix.of(pcieOnlyPci(), nodes(2), pcieOnlyNvml(), null);
        GpuMatrix m = plain.withPeers(PeerPath.of(fs(), plain, pcieOnlyPci(), access(gpus, false, "3>4", "4>3"), List.of()));
        MachineFacts live = MachineReader.read(FsRoot.open(hostside.Fixtures.h200().toString()));
        MachineFacts facts = new MachineFacts(live.schema(), live.host(), nodes(2), pcieOnlyPci(), Affinity.of(pcieOnlyPci(), nodes(2)),
                live.iommu(), live.kernelCmdline(), List.of(), List.of());
        MachineRun run = new MachineRun(facts, GpuDrill.GpuSection.notRun("recorded machine", null), m);
        var report = ReportBuilder.build(run, java.time.ZonedDateTime.parse("2026-12-03T06:00:00Z"));
        String md = ReportMarkdown.render(Json.MAPPER.readTree(Json.write(report)));
        assertThat(md).contains("- P2P no peer access (copies staged through host memory): GPU3-GPU4\n")
                .contains("- P2P peer access both ways, no native atomics (PCIe): GPU0-GPU1,");
        // a path as written before NVML's status and ACS were read: no such keys
        PeerPath old = Json.MAPPER.readValue("{\"pair\":\"GPU0-GPU1\",\"aToB\":true,\"bToA\":false}", PeerPath.class);
        assertThat(old.nvml()).isEmpty();
        assertThat(Json.write(old)).contains("\"nvmlAToB\" : { }").doesNotContain("\"nvml\"");
        assertThat(old.acsRedirecting()).isEmpty();
        assertThat(old.refused()).isTrue();
    }
}
