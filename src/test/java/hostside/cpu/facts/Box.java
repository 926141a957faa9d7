package hostside.cpu.facts;

import java.nio.file.Path;
import java.util.List;

import hostside.core.Finding;
import hostside.fs.FsRoot;
import hostside.testing.RecordedMachine;

/**
 * A recorded machine in a temp folder: by default a healthy two-node x86 training box with 16
 * CPUs (node 0: 0-7, node 1: 8-15), GPU0 on node 0, a Mellanox NIC (eth0) and an NVMe drive on
 * node 1, each device's interrupts on its own node and away from GPU0's CPUs, the performance
 * governor, shallow C-states, no isolation and no CPU quota. Tests change files from there.
 */
final class Box extends RecordedMachine<Box> {
    static final String CPU = "/sys/devices/system/cpu";
    static final String GPU = "0000:3b:00.0", NIC = "0000:86:00.0", NVME = "0000:87:00.0";
    static final int CPUS = 16;

    Box(Path root) {
        super(root);
    }

    CpuFacts read() {
        return CpuFactsReader.read(FsRoot.open(root.toString()));
    }

    List<Finding> findings() {
        return CpuVerdicts.of(read());
    }

    /** A PCI function under /sys/devices/pci0000:xx, linked from /sys/bus/pci/devices. */
    Box pci(String address, String klass, String vendor, String driver, int node, String local) {
        String bus = "pci0000:" + address.substring(5, 7);
        String dir = "/sys/devices/" + bus + "/" + address;
        put(dir + "/class", klass + "\n").put(dir + "/vendor", vendor + "\n").put(dir + "/device", "0x1234\n")
                .put(dir + "/numa_node", node + "\n").put(dir + "/local_cpulist", local + "\n");
        dir("/sys/bus/pci/drivers/" + driver);
        link(dir + "/driver", "../../../bus/pci/drivers/" + driver);
        link("/sys/bus/pci/devices/" + address, "../../../devices/" + bus + "/" + address);
        return this;
    }

    /** MSI vectors in msi_irqs and their /proc/irq affinity files. */
    Box irqs(String address, int... irqs) {
        String dir = "/sys/devices/pci0000:" + address.substring(5, 7) + "/" + address + "/msi_irqs/";
        for (int i : irqs) {
            put(dir + i, "msix\n");
        }
        return this;
    }

    Box affinity(int irq, String allowed, String effective) {
        put("/proc/irq/" + irq + "/smp_affinity_list", allowed + "\n");
        if (effective != null) put("/proc/irq/" + irq + "/effective_affinity_list", effective + "\n");
        return this;
    }

    /** One /proc/interrupts row with the count on one CPU (16 columns). */
    static String row(int irq, int cpu, long count, String rest) {
        StringBuilder s = new StringBuilder(String.format("%4d:", irq));
        for (int c = 0; c < CPUS; c++) s.append(String.format(" %10d", c == cpu ? count : 0));
        return s.append(' ').append(rest).append('\n').toString();
    }

    static String header() {
        StringBuilder s = new StringBuilder("     ");
        for (int c = 0; c < CPUS; c++) s.append(String.format("%11s", "CPU" + c));
        return s.append('\n').toString();
    }

    static String interrupts() {
        StringBuilder s = new StringBuilder(header());
        s.append(row(0, 0, 40, "IR-IO-APIC    2-edge      timer"));
        for (int i = 0; i < 4; i++) s.append(row(100 + i, i, 1000 + i, "IR-PCI-MSIX-" + GPU + "    " + i + "-edge      nvidia"));
        for (int i = 0; i < 4; i++) s.append(row(110 + i, 8 + i, 5000, "IR-PCI-MSIX-" + NIC + "    " + i + "-edge      mlx5_comp" + i + "@pci:" + NIC));
        for (int i = 0; i < 2; i++) s.append(row(120 + i, 12 + i, 700, "IR-PCI-MSIX-" + NVME + "    " + i + "-edge      nvme0q" + i));
        StringBuilder nmi = new StringBuilder("NMI:");
        StringBuilder loc = new StringBuilder("LOC:");
        for (int c = 0; c < CPUS; c++) {
            nmi.append(String.format(" %10d", 3));
            loc.append(String.format(" %10d", 100000 + c));
        }
        s.append(nmi).append("   Non-maskable interrupts\n").append(loc).append("   Local timer interrupts\n");
        s.append("ERR:          0\nMIS:          0\n");
        return s.toString();
    }

    static Box healthy(Path root) {
        Box b = new Box(root);
        b.put(CPU + "/online", "0-15\n").put(CPU + "/possible", "0-15\n").put(CPU + "/present", "0-15\n");
        b.put(CPU + "/isolated", "\n");
        for (int c = 0; c < CPUS; c++) {
            String d = CPU + "/cpu" + c + "/";
            b.put(d + "topology/core_cpus_list", c + "\n").put(d + "topology/package_cpus_list", (c < 8 ? "0-7" : "8-15") + "\n");
            b.put(d + "cpufreq/scaling_governor", "performance\n").put(d + "cpufreq/scaling_driver", "intel_pstate\n")
                    .put(d + "cpufreq/energy_performance_preference", "performance\n")
                    .put(d + "cpufreq/cpuinfo_max_freq", "3500000\n").put(d + "cpufreq/scaling_max_freq", "3500000\n")
                    .put(d + "cpufreq/scaling_cur_freq", "3100000\n");
        }
        b.put(CPU + "/intel_pstate/no_turbo", "0\n");
        b.put(CPU + "/cpuidle/current_driver", "intel_idle\n").put(CPU + "/cpuidle/current_governor_ro", "menu\n");
        String[][] states = {{"POLL", "0"}, {"C1", "2"}, {"C1E", "10"}};
        for (int s = 0; s < states.length; s++) {
            b.put(CPU + "/cpu0/cpuidle/state" + s + "/name", states[s][0] + "\n")
                    .put(CPU + "/cpu0/cpuidle/state" + s + "/latency", states[s][1] + "\n")
                    .put(CPU + "/cpu0/cpuidle/state" + s + "/disable", "0\n");
        }
        b.put("/sys/devices/system/node/online", "0-1\n");
        b.put("/sys/devices/system/node/node0/cpulist", "0-7\n").put("/sys/devices/system/node/node1/cpulist", "8-15\n");
        b.put("/proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
        b.put("/proc/version", "Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.2.0-23ubuntu4) "
                + "13.2.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024\n");
        b.put("/proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=/dev/nvme0n1p2 ro quiet splash\n");
        b.put("/proc/sys/kernel/sched_autogroup_enabled", "1\n").put("/proc/sys/kernel/sched_rt_runtime_us", "950000\n")
                .put("/proc/sys/kernel/sched_rt_period_us", "1000000\n").put("/proc/sys/kernel/numa_balancing", "0\n");
        b.put("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+\nflags\t\t: fpu lm\n");
        b.link("/proc/self", "4242");
        b.put("/proc/4242/status", "Name:\tjava\nPid:\t4242\nCpus_allowed:\tffff\nCpus_allowed_list:\t0-15\n"
                + "Mems_allowed:\t00000000,00000003\nMems_allowed_list:\t0-1\n");
        b.put("/proc/4242/cgroup", "0::/user.slice/job.scope\n");
        b.put("/proc/4242/mounts", "sysfs /sys sysfs rw 0 0\ncgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime 0 0\n");
        b.put("/sys/fs/cgroup/cpuset.cpus.effective", "0-15\n");
        b.put("/sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");
        b.put("/sys/fs/cgroup/user.slice/job.scope/cpu.max", "max 100000\n");

        b.pci(GPU, "0x030200", "0x10de", "nvidia", 0, "0-7").irqs(GPU, 100, 101, 102, 103);
        b.pci(NIC, "0x020000", "0x15b3", "mlx5_core", 1, "8-15").irqs(NIC, 110, 111, 112, 113);
        b.dir("/sys/devices/pci0000:86/" + NIC + "/net/eth0");
        b.pci(NVME, "0x010802", "0x144d", "nvme", 1, "8-15").irqs(NVME, 120, 121);
        b.dir("/sys/devices/pci0000:87/" + NVME + "/nvme/nvme0");
        for (int i = 0; i < 4; i++) b.affinity(100 + i, "0-7", String.valueOf(i));
        for (int i = 0; i < 4; i++) b.affinity(110 + i, "8-15", String.valueOf(8 + i));
        for (int i = 0; i < 2; i++) b.affinity(120 + i, "8-15", String.valueOf(12 + i));
        b.put("/proc/irq/default_smp_affinity", "ffff\n");
        b.put("/proc/interrupts", interrupts());
        return b;
    }
}
