package hostside.learn.m5;

import hostside.gpu.cuda.FabricReadiness.Fabric.State;

/**
 * Two compute trays of a multi-node NVLink domain sharing one allocation through a fabric handle,
 * as a small state machine: what each call returns given the trays' IMEX channels, IMEX daemons and
 * fabric state, and what NCCL's own check makes of it. The rules are the ones hostside's fabric
 * readiness test follows (gpu/cuda/FabricReadiness, after NVIDIA/nccl src/mnnvl.cc):
 * <ul>
 * <li>cuMemCreate with a fabric handle needs an IMEX channel, else CUDA_ERROR_NOT_PERMITTED (probed
 *     on the H200 VM, design/rack-apis.md);</li>
 * <li>exporting and importing the handle go through the IMEX daemons, the importer's asking the
 *     exporter's: a daemon that is not running fails the call;</li>
 * <li>NCCL turns multi-node NVLink off without an error when any rank's fabric state is not
 *     COMPLETED, a cluster UUID is zero or the clique has one member, and stops with an error when
 *     the allocation, the export or the import fails.</li>
 * </ul>
 */
final class ImexDomain {

    /** One compute tray: its IMEX channel, its IMEX daemon, its GPUs' fabric state and clique. */
    record Tray(String name, boolean channel, boolean daemon, State fabric, boolean clusterUuid, int clique) {
        static Tray healthy(String name) {
            return new Tray(name, true, true, State.COMPLETED, true, 1);
        }

        Tray withDaemon(boolean up) {
            return new Tray(name, channel, up, fabric, clusterUuid, clique);
        }

        Tray withFabric(State s) {
            return new Tray(name, channel, daemon, s, clusterUuid, clique);
        }

        Tray withChannel(boolean c) {
            return new Tray(name, c, daemon, fabric, clusterUuid, clique);
        }
    }

    /** A call's outcome: whether it worked, and what it returns or what happens. */
    record Call(String call, boolean ok, String result) {}

    /** What NCCL's init makes of the domain. */
    enum Mnnvl {
        /** Multi-node NVLink in use. */
        ON,
        /** Off without an error: NCCL carries on over its other transports (the network). */
        OFF,
        /** ncclSystemError: the job stops at init. */
        ERROR
    }

    record Nccl(Mnnvl mnnvl, String why) {}

    final Tray a, b;

    ImexDomain(Tray a, Tray b) {
        this.a = a;
        this.b = b;
    }

    static ImexDomain healthy() {
        return new ImexDomain(Tray.healthy("tray A"), Tray.healthy("tray B"));
    }

    ImexDomain withB(Tray b) {
        return new ImexDomain(a, b);
    }

    Call create() {
        return a.channel ? new Call("cuMemCreate", true, "CUDA_SUCCESS, with 2 MiB of GPU memory behind a handle that can be exported as a fabric handle")
                : new Call("cuMemCreate", false, "CUDA_ERROR_NOT_PERMITTED, since " + a.name + " has no IMEX channel");
    }

    Call export() {
        if (!create().ok()) return new Call("cuMemExportToShareableHandle", false, "nothing to export: the allocation failed");
        return a.daemon ? new Call("cuMemExportToShareableHandle", true, "CUDA_SUCCESS, with a 64-byte fabric handle")
                : new Call("cuMemExportToShareableHandle", false, "an error: the IMEX daemon on " + a.name + " is not running");
    }

    Call importOnB() {
        if (!export().ok()) return new Call("cuMemImportFromShareableHandle", false, "nothing to import: the export failed");
        if (!b.daemon) return new Call("cuMemImportFromShareableHandle", false, "an error, and nothing is mapped: the IMEX daemon on " + b.name + " is not running");
        if (!b.channel) return new Call("cuMemImportFromShareableHandle", false, "an error, since " + b.name + " has no IMEX channel");
        return new Call("cuMemImportFromShareableHandle", true, "CUDA_SUCCESS, with a local handle to " + a.name + "'s memory");
    }

    Call map() {
        if (!importOnB().ok()) return new Call("cuMemMap", false, "nothing to map: the import failed");
        return new Call("cuMemMap + cuMemSetAccess", true, "a pointer on " + b.name + "'s GPU to " + a.name + "'s memory, over NVLink");
    }

    /** NCCL's init on the two trays, in mnnvl.cc's order; each rank runs the allocate-export-import check in its own process. */
    Nccl ncclCheck() {
        for (Tray t : new Tray[]{a, b}) {
            if (t.fabric != State.COMPLETED)
                return new Nccl(Mnnvl.OFF, t.name + "'s fabric state is " + t.fabric + ", not COMPLETED: multi-node NVLink off, no error");
        }
        for (Tray t : new Tray[]{a, b}) {
            if (!t.clusterUuid) return new Nccl(Mnnvl.OFF, t.name + " has no cluster UUID: multi-node NVLink off, no error");
        }
        if (a.clique != b.clique) return new Nccl(Mnnvl.OFF, "the trays are in different cliques: multi-node NVLink off between them, no error");
        for (Tray t : new Tray[]{a, b}) {
            ImexDomain self = new ImexDomain(t, t);
            if (!self.create().ok())
                return new Nccl(Mnnvl.ERROR, "on " + t.name + " the allocation fails, and NCCL stops init with 'Check the IMEX channel configuration (/dev/nvidia-caps-imex-channels)'");
            if (!self.importOnB().ok())
                return new Nccl(Mnnvl.ERROR, "on " + t.name + " the export or import fails, and NCCL stops init with 'Check the IMEX configuration (nvidia-imex-ctl -N)'");
        }
        return new Nccl(Mnnvl.ON, "every rank's fabric is complete, one clique, and the handles export and import: multi-node NVLink on");
    }
}
