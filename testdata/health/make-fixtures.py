#!/usr/bin/env python3
"""Writes the recordings of `hostside health`'s host-side facts: testdata/health/<machine>.tar.gz,
each one folder <machine>/{sys,proc,usr,var,...} as `hostside --root` reads it.

Standard library only, deterministic (sorted entries, mtime 0, owner root, gzip without a name or
time), like testdata/rack/make-fixtures.py. README.md beside this file says where every value
comes from; what no source gave is marked synthetic there.

    python3 testdata/health/make-fixtures.py
"""
import os
import shutil
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from machinetree import Tree as _Tree, pack as _pack  # noqa: E402 (testdata/machinetree.py)


def Tree(name):
    return _Tree(BUILD, name)


def pack(t):
    return _pack(t, HERE)
BUILD = None


def pci(t, path, cls, vendor, device, numa, speed="32.0 GT/s PCIe", width=16):
    """A PCI function at /sys/devices/<path> (host bridge first) and its /sys/bus/pci/devices link."""
    bdf = path.split("/")[-1]
    d = "/sys/devices/" + path
    t.line(d + "/class", cls)
    t.line(d + "/vendor", vendor)
    t.line(d + "/device", device)
    t.line(d + "/numa_node", numa)
    t.line(d + "/local_cpulist", "0-15" if numa == 0 else "16-31")
    t.line(d + "/current_link_speed", speed)
    t.line(d + "/max_link_speed", speed)
    t.line(d + "/current_link_width", width)
    t.line(d + "/max_link_width", width)
    depth = 3  # sys/bus/pci/devices -> sys
    t.link("/sys/bus/pci/devices/" + bdf, "../" * depth + "devices/" + path)
    return d


# The kernel's names of AER counters, as Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats shows them.
COR = ["Receiver Error", "Bad TLP", "Bad DLLP", "RELAY_NUM Rollover", "Replay Timer Timeout",
       "Advisory Non-Fatal", "Corrected Internal Error", "Header Log Overflow"]
UNCOR = ["Undefined", "Data Link Protocol", "Surprise Down Error", "Poisoned TLP", "Flow Control Protocol",
         "Completion Timeout", "Completer Abort", "Unexpected Completion", "Receiver Overflow", "Malformed TLP",
         "ECRC", "Unsupported Request", "ACS Violation", "Uncorrectable Internal Error", "MC Blocked TLP",
         "AtomicOp Egress Blocked", "TLP Prefix Blocked Error"]


def aer(t, d, cor=None, nonfatal=None, fatal=None):
    """aer_dev_* files: the named counters given, 0 elsewhere, TOTAL_* last (here the sum)."""
    for fname, names, counts, total in (("aer_dev_correctable", COR, cor or {}, "TOTAL_ERR_COR"),
                                        ("aer_dev_nonfatal", UNCOR, nonfatal or {}, "TOTAL_ERR_NONFATAL"),
                                        ("aer_dev_fatal", UNCOR, fatal or {}, "TOTAL_ERR_FATAL")):
        lines = [f"{n} {counts.get(n, 0)}" for n in names]
        lines.append(f"{total} {sum(counts.values())}")
        t.file(d + "/" + fname, "\n".join(lines) + "\n")


def rootport(t, d, cor, nonfatal, fatal):
    t.line(d + "/aer_rootport_total_err_cor", cor)
    t.line(d + "/aer_rootport_total_err_nonfatal", nonfatal)
    t.line(d + "/aer_rootport_total_err_fatal", fatal)


# ------------------------------------------------------------------ RDMA

ERROR_COUNTERS = ["VL15_dropped", "excessive_buffer_overrun_errors", "link_downed", "link_error_recovery",
                  "local_link_integrity_errors", "port_rcv_constraint_errors", "port_rcv_errors",
                  "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_constraint_errors",
                  "port_xmit_discards", "port_xmit_wait", "symbol_error"]

# hw_counters of mlx5_0 in prometheus/procfs testdata/fixtures/sys/class.ttar (Apache-2.0)
PROCFS_MLX5_HW = {"duplicate_request": 41, "implied_nak_seq_err": 0, "lifespan": 10, "local_ack_timeout_err": 131,
                  "out_of_buffer": 0, "out_of_sequence": 1, "packet_seq_err": 1, "req_cqe_error": 3481,
                  "req_cqe_flush_error": 80, "req_remote_access_errors": 0, "req_remote_invalid_request": 0,
                  "resp_cqe_error": 8109, "resp_cqe_flush_error": 4708, "resp_local_length_error": 0,
                  "resp_remote_access_errors": 0, "rnr_nak_retry_err": 0, "roce_adp_retrans": 99,
                  "roce_adp_retrans_to": 4, "roce_slow_restart": 0, "roce_slow_restart_cnps": 131,
                  "roce_slow_restart_trans": 0, "rx_atomic_requests": 0, "rx_dct_connect": 0,
                  "rx_read_requests": 175528982, "rx_write_requests": 742114}


def rdma(t, pcidir, name, hca, fw, ports):
    """An RDMA device under its PCI function, /sys/class/infiniband/<name> linking to it."""
    d = pcidir + "/infiniband/" + name
    t.link(d + "/device", "../../../" + pcidir.split("/")[-1])
    if hca:
        t.line(d + "/hca_type", hca)
    t.line(d + "/fw_ver", fw)
    for num, p in ports.items():
        pd = f"{d}/ports/{num}"
        t.line(pd + "/state", p["state"])
        t.line(pd + "/phys_state", p["phys"])
        t.line(pd + "/rate", p["rate"])
        t.file(pd + "/link_layer", p.get("layer_text", p["layer"] + "\n"))
        for c, v in p.get("counters", {}).items():
            t.line(pd + "/counters/" + c, v)
        for c, v in p.get("hw", {}).items():
            t.line(pd + "/hw_counters/" + c, v)
        if p.get("ndev"):
            t.line(pd + "/gid_attrs/ndevs/0", p["ndev"])
            t.line(pd + "/gid_attrs/types/0", "IB/RoCE v1")
            t.dir(pcidir + "/net/" + p["ndev"])
    t.link("/sys/class/infiniband/" + name, "../../devices/" + d[len("/sys/devices/"):])


def counters(**nonzero):
    c = {n: 0 for n in ERROR_COUNTERS}
    c.update(nonzero)
    return c


# ------------------------------------------------------------------ machines

def ib_node():
    """Two sockets, two GPUs, InfiniBand and RoCE NICs: an assembly of public samples, see README.md."""
    t = Tree("ib-node")
    t.line("/sys/devices/system/node/has_cpu", "0-1")
    bridge, gpu, ib, eth = "0x060400", "0x030200", "0x020700", "0x020000"

    # socket 0: GPU0 and mlx5_0 under one PCIe switch (PIX)
    rp0 = pci(t, "pci0000:00/0000:00:01.0", bridge, "0x8086", "0x352a", 0)
    aer(t, rp0)
    rootport(t, rp0, 7, 1, 0)
    up = pci(t, "pci0000:00/0000:00:01.0/0000:01:00.0", bridge, "0x1000", "0xc030", 0)
    aer(t, up)
    dn0 = pci(t, "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0", bridge, "0x1000", "0xc030", 0)
    aer(t, dn0, cor={"Receiver Error": 7})
    g0 = pci(t, "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0", gpu, "0x10de", "0x2330", 0)
    aer(t, g0)
    dn1 = pci(t, "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0", bridge, "0x1000", "0xc030", 0)
    aer(t, dn1)
    n0 = pci(t, "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0", ib, "0x15b3", "0x1021", 0)
    aer(t, n0, nonfatal={"Completion Timeout": 1})
    rdma(t, n0, "mlx5_0", "MT4129", "28.41.1000", {1: {
        "state": "4: ACTIVE", "phys": "5: LinkUp", "rate": "400 Gb/sec (4X NDR)", "layer": "InfiniBand",
        "counters": counters(port_xmit_wait=2489603687, symbol_error=5, link_downed=2, port_rcv_data=18126345378,
                             port_xmit_data=2880761508848, port_rcv_packets=541889824, port_xmit_packets=10907922116)}})

    # socket 1: GPU1 alone under its root port, AER not exposed there; a dual-port RoCE NIC beside it (PHB)
    rp1 = pci(t, "pci0000:40/0000:40:01.0", bridge, "0x8086", "0x352a", 1)
    g1 = pci(t, "pci0000:40/0000:40:01.0/0000:41:00.0", gpu, "0x10de", "0x2330", 1)
    rp2 = pci(t, "pci0000:40/0000:40:03.0", bridge, "0x8086", "0x352b", 1)
    aer(t, rp2)
    rootport(t, rp2, 0, 0, 0)
    e0 = pci(t, "pci0000:40/0000:40:03.0/0000:42:00.0", eth, "0x15b3", "0x101d", 1)
    aer(t, e0)
    rdma(t, e0, "mlx5_1", "MT4125", "22.39.1002", {1: {
        "state": "4: ACTIVE", "phys": "5: LinkUp", "rate": "200 Gb/sec (4X HDR)", "layer": "Ethernet", "ndev": "ens3f0np0",
        "counters": counters(), "hw": PROCFS_MLX5_HW}})
    e1 = pci(t, "pci0000:40/0000:40:03.0/0000:42:00.1", eth, "0x15b3", "0x101d", 1)
    aer(t, e1)
    down = counters()
    down["VL15_dropped"] = "N/A (no PMA)"
    rdma(t, e1, "mlx5_2", "MT4125", "22.39.1002", {1: {
        "state": "1: DOWN", "phys": "3: Disabled", "rate": "10 Gb/sec (4X)", "layer": "Ethernet", "ndev": "ens3f1np1",
        "counters": down, "hw": {"lifespan": 10, "out_of_buffer": 0}}})

    # an older two-port InfiniBand HCA on a third host bridge of socket 1 (NODE from GPU1):
    # device and port values of mlx4_0 in prometheus/procfs's fixture
    rp3 = pci(t, "pci0000:80/0000:80:02.0", bridge, "0x8086", "0x352c", 1, "8.0 GT/s PCIe", 8)
    aer(t, rp3)
    h = pci(t, "pci0000:80/0000:80:02.0/0000:81:00.0", ib, "0x15b3", "0x1003", 1, "8.0 GT/s PCIe", 8)
    mlx4 = {"state": "4: ACTIVE", "phys": "5: LinkUp", "rate": "40 Gb/sec (4X QDR)", "layer": "InfiniBand"}
    rdma(t, h, "mlx4_0", "MT4099", "2.31.5050", {
        1: dict(mlx4, counters=counters(port_rcv_data=2221223609, port_rcv_packets=87169372, port_xmit_data=26509113295,
                                        port_xmit_packets=85734114, port_xmit_wait=3599)),
        2: dict(mlx4, layer_text="InfiniBand\n\n",
                counters=counters(port_rcv_data=2460436784, port_rcv_packets=89332064, port_xmit_data=26540356890,
                                  port_xmit_packets=88622850, port_xmit_wait=3846))})

    # soft-RoCE: an RDMA device with no PCI function
    t.line("/sys/devices/virtual/infiniband/rxe0/ports/1/state", "4: ACTIVE")
    t.line("/sys/devices/virtual/infiniband/rxe0/ports/1/phys_state", "5: LinkUp")
    t.line("/sys/devices/virtual/infiniband/rxe0/ports/1/rate", "100 Gb/sec (4X EDR)")
    t.line("/sys/devices/virtual/infiniband/rxe0/ports/1/link_layer", "Ethernet")
    t.link("/sys/class/infiniband/rxe0", "../../devices/virtual/infiniband/rxe0")

    # software: the H100's driver line and module (nvml-probe.txt); a stale libcuda and a second NCCL
    t.file("/proc/driver/nvidia/version",
           "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)  \n"
           "GCC version:  gcc version 15.3.0 (GCC) \n")
    t.line("/sys/module/nvidia/version", "580.159.04")
    t.line("/sys/module/nvidia/taint", "O")
    t.link("/lib", "usr/lib")
    lib = "/usr/lib/x86_64-linux-gnu"
    t.file(lib + "/libnvidia-ml.so.580.159.04")
    t.link(lib + "/libnvidia-ml.so.1", "libnvidia-ml.so.580.159.04")
    t.file(lib + "/libcuda.so.580.126.20")
    t.link(lib + "/libcuda.so.1", "libcuda.so.580.126.20")
    t.file(lib + "/libnccl.so.2.28.3")
    t.link(lib + "/libnccl.so.2", "libnccl.so.2.28.3")
    t.link(lib + "/libnccl.so", "libnccl.so.2")
    t.file(lib + "/libnccl_static.a")
    site = "/usr/local/lib/python3.12/dist-packages"
    t.file(site + "/nvidia_nccl_cu12-2.27.3.dist-info/METADATA",
           "Metadata-Version: 2.1\nName: nvidia-nccl-cu12\nVersion: 2.27.3\nSummary: NVIDIA Collective Communication Library (NCCL) Runtime\n"
           "\nVersion: 9.9.9 (a body line, not the header)\n")
    t.file(site + "/nvidia/nccl/lib/libnccl.so.2")
    t.file(site + "/numpy-2.1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: numpy\nVersion: 2.1.0\n")
    t.file("/var/lib/dpkg/status", DPKG_IB_NODE)
    return t


DPKG_IB_NODE = """Package: bash
Status: install ok installed
Priority: required
Architecture: amd64
Version: 5.2.21-2ubuntu4
Description: GNU Bourne Again SHell
 Bash is an sh-compatible command language interpreter.
 Version: 0.0 (a continuation line, not a field)

Package: nvidia-driver-580-open
Status: install ok installed
Architecture: amd64
Version: 580.159.04-0ubuntu1
Description: NVIDIA driver (open kernel) metapackage

Package: libnvidia-compute-580
Status: install ok installed
Architecture: amd64
Version: 580.159.04-0ubuntu1

Package: cuda-drivers-580
Status: install ok installed
Architecture: amd64
Version: 580.159.04-1

Package: nvidia-fabricmanager
Status: install ok installed
Architecture: amd64
Version: 580.159.04-1

Package: nvidia-fabricmanager-570
Status: deinstall ok config-files
Architecture: amd64
Version: 570.172.08-1

Status: install ok installed
Version: 1.0
this line is garbage

Package: datacenter-gpu-manager-4-cuda13
Status: install ok installed
Architecture: amd64
Version: 1:4.4.1-1

Package: libnccl2
Status: hold ok installed
Architecture: amd64
Version: 2.28.3-1+cuda13.0

Package: libnccl-dev
Status: hold ok installed
Architecture: amd64
Version: 2.28.3-1+cuda13.0
"""


def h100_vm(name="h100-vm"):
    """The H100 VM as shared/fixtures/h100/nvml-probe.txt shows it: no AER, no RDMA, NCCL from packages."""
    t = Tree(name)
    t.line("/sys/devices/system/node/has_cpu", "0")
    pci(t, "pci0000:00/0000:00:06.0", "0x030200", "0x10de", "0x2330", -1)
    t.file("/proc/driver/nvidia/version",
           "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)  \n"
           "GCC version:  gcc version 15.3.0 (GCC) \n")
    t.line("/sys/module/nvidia/version", "580.159.04")
    t.line("/sys/module/nvidia/taint", "O")
    lib = "/usr/lib/x86_64-linux-gnu"
    t.file(lib + "/libnccl.so.2.28.3")
    t.link(lib + "/libnccl.so.2", "libnccl.so.2.28.3")
    t.link(lib + "/libnccl.so", "libnccl.so.2")
    t.file(lib + "/libnccl_static.a")
    t.file("/var/lib/dpkg/status", """Package: libnccl-dev
Status: hold ok installed
Architecture: amd64
Version: 2.28.3-1+cuda13.0
Description: NVIDIA Collective Communication Library (NCCL) Development Files

Package: libnccl2
Status: hold ok installed
Architecture: amd64
Version: 2.28.3-1+cuda13.0
Description: NVIDIA Collective Communication Library (NCCL) Runtime
""")
    return t


def h100_node():
    """The same VM as a snapshot of it holds it: with NVML's answers in hostside's own folder
    (h100-nvml-health.json, written by hostside.health.H100NodeFixture from the fake's H100 numbers)."""
    t = h100_vm("h100-node")
    with open(os.path.join(HERE, "h100-nvml-health.json"), encoding="utf-8") as f:
        t.file("/hostside/nvml-health.json", f.read())
    return t


def main():
    global BUILD
    BUILD = tempfile.mkdtemp(prefix="health-fixtures-")
    try:
        for t in (ib_node(), h100_vm(), h100_node()):
            out = pack(t)
            print(f"{os.path.basename(out)}: {os.path.getsize(out):,} bytes")
    finally:
        shutil.rmtree(BUILD)


if __name__ == "__main__":
    main()
