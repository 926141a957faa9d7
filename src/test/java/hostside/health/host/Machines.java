package hostside.health.host;

import hostside.Fixtures;
import hostside.fs.FsRoot;

/** The recordings of testdata/health (its README says where each value comes from) and the H200's. */
final class Machines {
    static final String GPU0 = "0000:03:00.0", GPU1 = "0000:41:00.0", NIC0 = "0000:04:00.0";

    private Machines() {}

    /** Two sockets, two GPUs, InfiniBand and RoCE NICs, a stale libcuda, two NCCLs. */
    static FsRoot ibNode() {
        return FsRoot.open(Fixtures.testdata().resolve("health/ib-node.tar.gz").toString());
    }

    /** The H100 VM of shared/fixtures/h100/nvml-probe.txt: no AER, no RDMA, NCCL from packages. */
    static FsRoot h100Vm() {
        return FsRoot.open(Fixtures.testdata().resolve("health/h100-vm.tar.gz").toString());
    }

    /** The H200 VM as recorded on 2026-12-02 (testdata/h200): a real /sys of a GPU without AER files. */
    static FsRoot h200() {
        return FsRoot.open(Fixtures.h200().toString());
    }
}
