package hostside.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Scopes are written as one string and read back from it, each kind with its own prefix. */
class ScopeTest {
    @Test
    void aGpuFedFromANodeIsWrittenAndReadAsGpunode() {
        Scope s = Scope.gpuNode("0000:00:06.0", 1);
        assertThat(s.kind()).isEqualTo(Scope.Kind.GPU_NODE);
        assertThat(s.toString()).isEqualTo("gpunode:0000:00:06.0,1");
        assertThat(Scope.parse("gpunode:0000:00:06.0,1")).isEqualTo(s);
        // the GPU's own scope is another one, though its prefix starts the same
        assertThat(Scope.parse("gpu:0000:00:06.0")).isEqualTo(Scope.gpu("0000:00:06.0")).isNotEqualTo(s);
    }

    @Test
    void everyKindReadsBackFromWhatItWrites() {
        for (Scope s : new Scope[] {Scope.MACHINE, Scope.gpu("0000:00:06.0"), Scope.node(1), Scope.nodes(0, 1), Scope.gpuNode("0000:00:06.0", 0),
                Scope.pair("0000:01:00.0", "0000:2d:00.0"), Scope.dir("/var/tmp"), Scope.cpus(CpuSet.range(0, 3))}) {
            assertThat(Scope.parse(s.toString())).as(s.toString()).isEqualTo(s);
        }
    }

    @Test
    void anUnknownPrefixNamesEveryKind() {
        assertThatThrownBy(() -> Scope.parse("socket:1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("\"socket:1\" is not a scope (machine, gpu:PCI, node:N, nodes:N,M, gpunode:PCI,N, pair:PCI,PCI, dir:PATH, cpu:LIST)");
        assertThatThrownBy(() -> Scope.parse("gpunode:")).hasMessageContaining("is not a scope");
    }
}
