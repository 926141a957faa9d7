package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** CudaFacts.read through the binding, against the fake driver's two GPUs. */
class CudaFactsOnFakeTest extends OnFakeDriver {
    @Override
    protected boolean openBeforeEach() {
        return false;
    }

    @Test
    void readsEachGpu() {
        CudaFacts f = CudaFacts.read(fake.ready());
        assertThat(f.cudaVersion()).isEqualTo("13.0");
        assertThat(f.gpus()).hasSize(2);
        CudaFacts.CudaGpu g = f.gpus().getFirst();
        assertThat(g.name()).isEqualTo("NVIDIA H200");
        assertThat(g.uuid()).isEqualTo("GPU-4a1bd2f4-9e3c-5a17-8f0e-2b6c7d8e9f01");
        assertThat(g.pciAddress()).isEqualTo("0000:1a:00.0");
        assertThat(g.smCount()).isEqualTo(132);
        assertThat(g.memoryBytes()).isEqualTo(150754820096L);
        assertThat(g.computeCapability()).isEqualTo("9.0");
        // 88 and 100 are 0: no pageable access at all
        assertThat(g.coherence()).isEqualTo("none");
        assertThat(f.gpus().get(1).name()).isEqualTo("NVIDIA H100 80GB HBM3");
    }

    @Test
    void anAttributeTheDriverDoesNotKnowIsNullNotZero() {
        CudaFacts.CudaGpu g = CudaFacts.read(fake.ready()).gpus().getFirst();
        // 88 is known to the fake (0), 86 (host native atomics) is not
        assertThat(g.attributes()).filteredOn(a -> a.id() == 88).singleElement()
                .satisfies(a -> assertThat(a.value()).isEqualTo(0));
        assertThat(g.attributes()).filteredOn(a -> a.id() == 86).singleElement()
                .satisfies(a -> assertThat(a.value()).isNull());
    }
}
