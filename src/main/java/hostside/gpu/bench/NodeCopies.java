package hostside.gpu.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import hostside.core.Better;
import hostside.core.CpuSet;
import hostside.core.Figure;
import hostside.core.Scope;
import hostside.core.Stats;
import hostside.core.Unit;
import hostside.gpu.cuda.DeviceBuffer;
import hostside.gpu.cuda.HostBuffer;
import hostside.harness.DetailFigures;
import hostside.harness.Result;
import hostside.harness.TestCase;
import hostside.libc.Libc;
import hostside.libc.LibcException;
import hostside.libc.Sched;
import hostside.memory.Placement;

/**
 * Host copies from each NUMA node: the copies of {@link Copies.CePinned} and {@link Copies.CePageable},
 * timed the same way, once per node with the host buffer bound to that node and the thread that
 * feeds the GPU pinned to the node's CPUs, as {@code numactl --cpunodebind=N --membind=N} would run
 * nvbandwidth. From a node other than the GPU's own the copy engine's reads cross the link between
 * sockets; a pageable copy also pays the driver's staging memcpy from wherever the pages are.
 * <p>
 * A pinned buffer on a node is a pageable one bound there and then registered in place
 * (cuMemHostRegister): cuMemHostAlloc cannot be told a node, and places its pages by whichever
 * thread touches them. The same buffer serves the pageable copies first (registered memory is no
 * longer pageable to the driver), so that both kinds read the very same pages.
 * <p>
 * The figure: the slowest node's pinned host-to-device copy as a share of the GPU's own node's,
 * or of the fastest node's where sysfs does not name the GPU's node (a VM says -1); 100% on a
 * machine of one node. Per node, four figures of their own (scope {@code gpunode:<pci>,<node>}).
 *
 * @param nodes      the nodes to copy from: those with CPUs and memory, in id order (the drill fills
 *                   them in from the topology; empty: the case does not apply)
 * @param ownNode    the GPU's NUMA node as sysfs says it; null when it does not
 * @param oneNodeToo whether it runs on a machine of one node, where it only compares registered
 *                   memory on the node with {@code host_to_device_ce_pinned}'s (the report's
 *                   {@link #acrossNodesOnly}: 3.8 s of the H100 VM's report for no verdict to act on)
 */
public record NodeCopies(List<From> nodes, Integer ownNode, boolean oneNodeToo) implements TestCase<Target> {
    public static final String KEY = "host_copies_by_node";
    public static final String H2D_PINNED = "host_to_device_ce_pinned_node", D2H_PINNED = "device_to_host_ce_pinned_node",
            H2D_PAGEABLE = "host_to_device_ce_pageable_node", D2H_PAGEABLE = "device_to_host_ce_pageable_node";

    /** A node to copy from and the CPUs its feeding thread runs on. */
    public record From(int node, CpuSet cpus) {}

    public NodeCopies {
        nodes = List.copyOf(nodes);
    }

    /** The case as {@code --list} and {@code --only} name it, before the machine says its nodes: the drill gives them with {@link #from}. */
    public NodeCopies() {
        this(List.of(), null, true);
    }

    /** This case for one GPU of this machine. */
    public NodeCopies from(List<From> nodes, Integer ownNode) {
        return new NodeCopies(nodes, ownNode, oneNodeToo);
    }

    /** This case where a placement can differ only: not run on a machine of one node. */
    public NodeCopies acrossNodesOnly() {
        return new NodeCopies(nodes, ownNode, false);
    }

    static final String ONE_NODE = "one NUMA node: the copies above are from it (hostside machine compares its registered memory with them)";

    public String key() {
        return KEY;
    }

    public String description() {
        return "pinned and pageable copies both ways from each NUMA node, the buffer bound there and the feeding thread on its CPUs"
                + " (figure: the slowest node's host to device, pinned, as a share of the GPU's own node's)";
    }

    @Override
    public String anchor() {
        return "numactl --cpunodebind=N --membind=N nvbandwidth host_to_device_memcpy_ce";
    }

    @Override
    public Better better() {
        return Better.HIGHER;
    }

    @Override
    public Class<NodeDetail> detailType() {
        return NodeDetail.class;
    }

    @Override
    public Optional<String> notApplicable(Target t) {
        if (nodes.isEmpty()) return Optional.of("no NUMA node with CPUs and memory is known to copy from");
        return nodes.size() == 1 && !oneNodeToo ? Optional.of(ONE_NODE) : Optional.empty();
    }

    /**
     * One node's copies, GB/s each (median, min, max of the samples).
     *
     * @param unbound why the buffer could not be bound to the node (mbind refused, as a container's
     *                seccomp profile may): its pages were then placed by first touch on the node's
     *                CPUs; "" when it was bound
     * @param onNode  the share of the sampled pages found on the node after the first touch, 0 to 1;
     *                null when the kernel could not say (move_pages refused)
     */
    public record Row(int node, CpuSet cpus, Stats h2dPinned, Stats d2hPinned, Stats h2dPageable, Stats d2hPageable, String unbound,
                      Double onNode) {}

    /**
     * What the copies ran with and each node's figures.
     *
     * @param gpu                 the GPU's name and PCI address
     * @param pinnedBufferBytes   each pinned copy's size (nvbandwidth's 512 MiB where the bounds allow)
     * @param pageableBufferBytes each pageable copy's size
     * @param ownNode             the GPU's NUMA node; null when sysfs does not say
     * @param rows                one per node, in the order measured
     */
    public record NodeDetail(String gpu, long pinnedBufferBytes, long pageableBufferBytes, Integer ownNode, List<Row> rows)
            implements DetailFigures {
        public NodeDetail {
            rows = List.copyOf(rows);
        }

        /** The GPU's own node's row, when it is known and was measured. */
        public Optional<Row> own() {
            return rows.stream().filter(r -> ownNode != null && r.node() == ownNode).findFirst();
        }

        /** What the others are compared with: the own node's row, else the fastest (pinned, host to device). */
        public Row reference() {
            return own().orElseGet(this::fastest);
        }

        public Row fastest() {
            return rows.stream().max(Comparator.comparingDouble(r -> r.h2dPinned().median())).orElseThrow();
        }

        public Row slowest() {
            return rows.stream().min(Comparator.comparingDouble(r -> r.h2dPinned().median())).orElseThrow();
        }

        /** The case's figure: the slowest node as a percentage of the reference (100 on one node). */
        public double share() {
            return percentOf(slowest());
        }

        /** {@code r}'s pinned host-to-device median as a percentage of the reference's. */
        public double percentOf(Row r) {
            return 100 * r.h2dPinned().median() / reference().h2dPinned().median();
        }

        /** Four figures per node, about the GPU fed from that node; none where {@code scope} is not a GPU's. */
        @Override
        public List<Figure> figures(Result r, Scope scope) {
            if (scope.kind() != Scope.Kind.GPU) return List.of();
            List<Figure> f = new ArrayList<>();
            for (Row x : rows) {
                Scope s = Scope.gpuNode(scope.id(), x.node());
                String numactl = "numactl --cpunodebind=" + x.node() + " --membind=" + x.node();
                f.add(figure(H2D_PINNED, s, x.h2dPinned(), Copies.PINNED_METHOD + PLACED, numactl + " nvbandwidth host_to_device_memcpy_ce"));
                f.add(figure(D2H_PINNED, s, x.d2hPinned(), Copies.PINNED_METHOD + PLACED, numactl + " nvbandwidth device_to_host_memcpy_ce"));
                f.add(figure(H2D_PAGEABLE, s, x.h2dPageable(), Copies.PAGEABLE_METHOD + PLACED,
                        "PyTorch tensor.copy_ from pageable memory; CUDA samples bandwidthTest --memory=pageable --htod; each under " + numactl));
                f.add(figure(D2H_PAGEABLE, s, x.d2hPageable(), Copies.PAGEABLE_METHOD + PLACED,
                        "PyTorch tensor.copy_ from pageable memory; CUDA samples bandwidthTest --memory=pageable --dtoh; each under " + numactl));
            }
            return f;
        }

        private static final String PLACED = "; the buffer bound to the node, the feeding thread on its CPUs";

        private static Figure figure(String key, Scope scope, Stats s, String method, String anchor) {
            return new Figure(key, scope, s.median(), Unit.GB_PER_S, Better.HIGHER, s.min(), s.max(), s.samples(), method, anchor);
        }
    }

    public Result run(Target t) {
        long pinnedBytes = t.hostBuffer(Target.DEFAULT_BUFFER), pageableBytes = Math.min(t.hostBuffer(Copies.PAGEABLE_BUFFER), pinnedBytes);
        GpuBench b = t.bench();
        long pageSize = Libc.pageSize();
        List<Row> rows = new ArrayList<>();
        try (DeviceBuffer dev = b.gpu.alloc(pinnedBytes)) {
            dev.fill(0x5a5a5a5a);
            for (From n : nodes) {
                rows.add(onThread("hostside-node" + n.node(), () -> {
                    Sched.pin(n.cpus().stream().boxed().toList());
                    b.gpu.makeCurrent();
                    return fromNode(b, dev, n, pinnedBytes, pageableBytes, pageSize);
                }));
            }
        }
        NodeDetail d = new NodeDetail(Copies.gpuName(b), pinnedBytes, pageableBytes, ownNode, rows);
        double share = d.share();
        return Result.ok(this, Unit.PERCENT, new Stats(share, share, share, Copies.SAMPLES),
                "the slowest node's pinned host-to-device copy as a share of the GPU's own node's (of the fastest node's when its own is not known)", d);
    }

    /**
     * One node's four copies, on the calling thread, which is already on the node's CPUs. The buffer
     * is first touched here too, so that a refused mbind still leaves its pages on the node (the
     * kernel's default policy allocates on the touching CPU's node); the check after says where they went.
     */
    private static Row fromNode(GpuBench b, DeviceBuffer dev, From n, long pinnedBytes, long pageableBytes, long pageSize) {
        HostBuffer host;
        String unbound = "";
        try {
            host = HostBuffer.pageable(b.cuda, pinnedBytes, n.node());
        } catch (LibcException e) {
            host = HostBuffer.pageable(b.cuda, pinnedBytes);
            unbound = e.getMessage();
        }
        try (HostBuffer h = host) {
            // where the pages went, as the memory measurements check theirs
            Double onNode = Placement.of(h.segment(), pageSize, n.node()).shareOn(n.node());
            // pageable first: once registered, the driver copies these pages as pinned ones
            Stats h2dPageable = Copies.pageableGbs(b, h, dev, pageableBytes, true);
            Stats d2hPageable = Copies.pageableGbs(b, h, dev, pageableBytes, false);
            h.register();
            Stats h2dPinned = Copies.pinnedGbs(b, h, dev, pinnedBytes, true);
            Stats d2hPinned = Copies.pinnedGbs(b, h, dev, pinnedBytes, false);
            return new Row(n.node(), n.cpus(), h2dPinned, d2hPinned, h2dPageable, d2hPageable, unbound, onNode);
        }
    }

    /**
     * Runs {@code work} on a new platform thread (which pins itself to the node's CPUs and makes the
     * GPU's context current there: a context is current per thread), so that the caller's own
     * affinity is left alone. It waits for the thread even when interrupted: the thread copies into
     * a device buffer the caller frees after this returns. {@link LaunchCost} runs its cores the same way.
     */
    static <T> T onThread(String name, Supplier<T> work) {
        Object[] out = new Object[1];
        RuntimeException[] failure = new RuntimeException[1];
        Thread t = Thread.ofPlatform().name(name).unstarted(() -> {
            try {
                out[0] = work.get();
            } catch (RuntimeException e) {
                failure[0] = e;
            }
        });
        t.start();
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        if (failure[0] != null) throw failure[0];
        if (out[0] == null) throw new IllegalStateException(name + " ended without a result");
        @SuppressWarnings("unchecked")
        T r = (T) out[0];
        return r;
    }
}
