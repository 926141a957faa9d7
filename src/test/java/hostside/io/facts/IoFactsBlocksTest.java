package hostside.io.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.core.Style;
import hostside.doc.Document;
import hostside.doc.TextRenderer;

/** The facts as a document's tables, drawn for the terminal, and as JSON through the one mapper. */
class IoFactsBlocksTest {
    @TempDir
    Path tmp;

    /** The facts' blocks as the terminal shows them, without colour. */
    static String text(IoFacts f) {
        return new TextRenderer(Style.plain()).render(new Document("facts", IoFactsBlocks.of(f)));
    }

    @Test
    void everySectionWithItsRows() {
        Rig r = new Rig(tmp);
        r.put(r.real("/sys/block/nvme1n1") + "/queue/max_sectors_kb", "2048\n");
        String text = text(r.read("/data/x", "/shared"));
        assertThat(text).contains("Data paths", "Block devices", "Network interfaces", "RDMA", "GPUDirect");
        assertThat(text).containsPattern("/data/x +/data +xfs +local: xfs +/dev/md0 +md0 +nvme1n1, nvme2n1 +128 KiB +relatime");
        assertThat(text).containsPattern("/shared +/shared +nfs4 +network: NFS v4 +storage:/export/shared +- +- +16 MiB");
        assertThat(text).containsPattern("md0 +md +md raid0 +1 TiB +no +none +1023 +512/4096 +128 KiB +1280 KiB +nvme1n1, nvme2n1 +- +-");
        assertThat(text).containsPattern("nvme1n1 +nvme +SAMSUNG MZQL23T8HCLS-00A07 +1 TiB +no +none \\(of none, mq-deadline, kyber\\) "
                + "+1023 +512/4096 +128 KiB +2 MiB +- +0 +Gen4 x4");
        assertThat(text).containsPattern("eth0 +ethernet +mlx5_core +200 Gb/s +9000 +up +0000:18:00.0 +0 +- +mlx5_0");
        assertThat(text).containsPattern("mlx5_0 +1 +ACTIVE +LinkUp +200 Gb/sec \\(4X HDR\\) +Ethernet \\(RoCE\\) +eth0 +MT4129, firmware 28.39.1002");
        assertThat(text).contains("GPUDirect RDMA     nvidia_peermem loaded", "GPUDirect Storage  nvidia_fs loaded",
                "/etc/cufile.json   allow_compat_mode true, use_poll_mode false");
        assertThat(text).doesNotContain("unknown:");
    }

    @Test
    void sectionsWithoutRowsAreLeftOut() {
        Rig r = new Rig(tmp).remove("/sys/class/net").remove("/sys/class/infiniband").remove("/sys/block").remove("/sys/class/block");
        String text = text(r.read("/"));
        assertThat(text).contains("Data paths", "GPUDirect").doesNotContain("Block devices", "Network interfaces", "RDMA device");
    }

    @Test
    void jsonHasTheRecordsFieldsAndNothingElse() throws Exception {
        JsonNode j = Json.MAPPER.readTree(Json.write(new Rig(tmp).read("/data")));
        assertThat(j.fieldNames()).toIterable().containsExactly("dataDirs", "blockDevices", "nics", "rdmaDevices", "gpuDirect", "unknowns");
        assertThat(j.at("/dataDirs/0/filesystem/storage").asText()).isEqualTo("local");
        assertThat(j.at("/blockDevices/1/controller/link/maxWidth").asInt()).isEqualTo(4);
        assertThat(j.at("/nics/0/speedMbps").asLong()).isEqualTo(200000);
        assertThat(j.at("/rdmaDevices/0/ports/0/rateGbps").asDouble()).isEqualTo(200.0);
        assertThat(j.at("/gpuDirect/cufile/allowCompatMode").asBoolean()).isTrue();
        assertThat(j.at("/nics/0").has("virtual")).isTrue();
    }
}
