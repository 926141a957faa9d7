package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The coherence class from attributes 88 and 100 (DOMAIN.md). */
class CudaFactsTest {
    static List<CudaFacts.Attribute> attrs(Integer pageable, Integer tables) {
        return List.of(new CudaFacts.Attribute("pageableMemoryAccess", 88, pageable, ""),
                new CudaFacts.Attribute("pageableMemoryAccessUsesHostPageTables", 100, tables, ""));
    }

    @Test
    void atsHmmNone() {
        assertThat(CudaFacts.coherence(attrs(1, 1))).isEqualTo("ATS");   // Grace Hopper, GB200
        assertThat(CudaFacts.coherence(attrs(1, 0))).isEqualTo("HMM");   // x86 with HMM enabled
        assertThat(CudaFacts.coherence(attrs(0, 0))).isEqualTo("none");  // the H200 VM
        assertThat(CudaFacts.coherence(attrs(0, null))).isEqualTo("none");
    }

    @Test
    void anAttributeTheDriverDoesNotKnowIsUnknownNotFalse() {
        assertThat(CudaFacts.coherence(attrs(null, null))).isEqualTo("unknown");
        assertThat(CudaFacts.coherence(attrs(1, null))).isEqualTo("HMM or ATS");
    }
}
