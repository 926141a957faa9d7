package hostside.core;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What a figure is about (docs/contract.md, Typed figures): the machine, one GPU, a NUMA node, a
 * (CPU node, memory node) pair, a GPU fed from a NUMA node, an ordered pair of GPUs, a folder or a set of CPUs.
 * Written as one string, "gpu:0000:00:06.0", "gpunode:0000:00:06.0,1", "pair:0000:00:06.0,0000:00:07.0",
 * "dir:/var/tmp", so that a fleet can group by it.
 */
public record Scope(Kind kind, String id) {

    public enum Kind {
        MACHINE("machine"), GPU("gpu"), NODE("node"), NODES("nodes"), GPU_NODE("gpunode"), PAIR("pair"), DIR("dir"), CPU("cpu");

        public final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }
    }

    public Scope {
        if (kind == Kind.MACHINE ? !id.isEmpty() : id.isEmpty()) {
            throw new IllegalArgumentException(kind == Kind.MACHINE ? "the machine scope has no id" : kind.prefix + " scope without an id");
        }
    }

    public static final Scope MACHINE = new Scope(Kind.MACHINE, "");

    public static Scope gpu(String pciAddress) {
        return new Scope(Kind.GPU, pciAddress);
    }

    public static Scope node(int id) {
        return new Scope(Kind.NODE, Integer.toString(id));
    }

    /** Threads on {@code cpuNode}'s CPUs, memory on {@code memoryNode}: a cell of a memory matrix, as Intel MLC prints them. */
    public static Scope nodes(int cpuNode, int memoryNode) {
        return new Scope(Kind.NODES, cpuNode + "," + memoryNode);
    }

    /** GPU {@code pci} fed from NUMA node {@code node}: its host buffer bound there, the feeding thread on the node's CPUs. */
    public static Scope gpuNode(String pci, int node) {
        return new Scope(Kind.GPU_NODE, pci + "," + node);
    }

    /** From {@code from} to {@code to}: the GPU that issues the copy first, as nvbandwidth's rows. */
    public static Scope pair(String from, String to) {
        return new Scope(Kind.PAIR, from + "," + to);
    }

    public static Scope dir(String path) {
        return new Scope(Kind.DIR, path);
    }

    /** A set of CPUs (a pinned pair, the CPUs a test ran on), as a cpulist. */
    public static Scope cpus(CpuSet cpus) {
        return new Scope(Kind.CPU, cpus.toString());
    }

    @JsonValue
    @Override
    public String toString() {
        return kind == Kind.MACHINE ? "machine" : kind.prefix + ":" + id;
    }

    @JsonCreator
    public static Scope parse(String s) {
        if (s.equals("machine")) return MACHINE;
        int colon = s.indexOf(':');
        if (colon > 0) {
            String prefix = s.substring(0, colon), id = s.substring(colon + 1);
            for (Kind k : Kind.values()) if (k != Kind.MACHINE && k.prefix.equals(prefix) && !id.isEmpty()) return new Scope(k, id);
        }
        throw new IllegalArgumentException("\"" + s + "\" is not a scope (machine, gpu:PCI, node:N, nodes:N,M, gpunode:PCI,N, pair:PCI,PCI, dir:PATH, cpu:LIST)");
    }
}
