package hostside.container;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.core.Finding;
import hostside.fs.FsRoot;
import hostside.testing.RecordedMachine;

/**
 * A recorded container in a temp folder. {@link #v2} is a healthy Docker container on cgroup v2
 * with its own cgroup namespace, {@link #v1} one on cgroup v1 without (its cgroups mounted as
 * /docker/ID subtrees), {@link #host} a bare host with no limits; {@link #tight} turns any of them
 * into the classic broken one: 64 MiB /dev/shm, a 2-CPU quota on 64 CPUs, pids.max 64, memlock
 * 64 KiB and no CAP_IPC_LOCK. Every healthy container runs on 64 CPUs with 8 GPUs passed in.
 */
final class Rig extends RecordedMachine<Rig> {
    static final String CG = "/sys/fs/cgroup";
    static final String ID = "4f3c2a1b9e8d";
    /** Docker's default capability set: no IPC_LOCK, no SYS_NICE, no SYS_RESOURCE. */
    static final String DOCKER_CAPS = "00000000a80425fb";
    static final String ALL_CAPS = "000001ffffffffff";
    static final long GIB = 1L << 30, MIB = 1L << 20;

    private final Map<String, String> mounts = new LinkedHashMap<>();
    private String version, v2leaf = CG;
    private long memlock = -1, nofile = 1048576, nproc = -1;
    private String caps = DOCKER_CAPS, uid = "0", cpus = "0-63";
    Map<String, String> env = new LinkedHashMap<>(Map.of("NVIDIA_VISIBLE_DEVICES", "all"));
    Long liveShm, liveShmUsed;

    private Rig(Path root) {
        super(root);
    }

    /** Docker on cgroup v2 with a private cgroup namespace: /proc/self/cgroup says "0::/". */
    static Rig v2(Path root) {
        Rig r = new Rig(root);
        r.version = "v2";
        r.container();
        r.mount(CG, "/", "cgroup2", "ro,nosuid,nodev,noexec,relatime", "rw,nsdelegate,memory_recursiveprot");
        r.put("/proc/self/cgroup", "0::/\n");
        r.put(CG + "/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
        r.put(CG + "/memory.max", 128 * GIB + "\n").put(CG + "/memory.current", 8 * GIB + "\n").put(CG + "/memory.high", "max\n")
                .put(CG + "/memory.swap.max", "0\n").put(CG + "/memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n");
        r.put(CG + "/cpu.max", "max 100000\n").put(CG + "/cpu.weight", "100\n")
                .put(CG + "/cpu.stat", "usage_usec 912345\nuser_usec 800000\nsystem_usec 112345\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n");
        r.put(CG + "/pids.max", "max\n").put(CG + "/pids.current", "12\n");
        r.put(CG + "/cpuset.cpus.effective", "0-63\n").put(CG + "/cpuset.mems.effective", "0\n");
        return r.write();
    }

    /** Docker on cgroup v1 without a cgroup namespace: full /docker/ID paths, each mount showing that subtree. */
    static Rig v1(Path root) {
        Rig r = new Rig(root);
        r.version = "v1";
        r.container();
        r.mount(CG, "/", "tmpfs", "ro,nosuid,nodev,noexec", "rw,mode=755");
        for (String c : List.of("memory", "cpu,cpuacct", "pids", "cpuset")) {
            r.mount(CG + "/" + c, "/docker/" + ID, "cgroup", "ro,nosuid,nodev,noexec,relatime", "rw," + c);
        }
        r.put("/proc/self/cgroup", "12:pids:/docker/" + ID + "\n4:memory:/docker/" + ID + "\n3:cpu,cpuacct:/docker/" + ID
                + "\n2:cpuset:/docker/" + ID + "\n1:name=systemd:/docker/" + ID + "\n");
        String m = CG + "/memory/", c = CG + "/cpu,cpuacct/";
        r.put(m + "memory.limit_in_bytes", "9223372036854771712\n").put(m + "memory.usage_in_bytes", 8 * GIB + "\n")
                .put(m + "memory.memsw.limit_in_bytes", "9223372036854771712\n").put(m + "memory.failcnt", "0\n")
                .put(m + "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n");
        r.put(c + "cpu.cfs_quota_us", "-1\n").put(c + "cpu.cfs_period_us", "100000\n").put(c + "cpu.shares", "1024\n")
                .put(c + "cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
        r.link(CG + "/cpu", "cpu,cpuacct");
        r.put(CG + "/pids/pids.max", "max\n").put(CG + "/pids/pids.current", "12\n");
        r.put(CG + "/cpuset/cpuset.cpus", "0-63\n").put(CG + "/cpuset/cpuset.mems", "0\n");
        return r.write();
    }

    /** A bare host: ext4 root, systemd as PID 1, kthreadd as PID 2, cgroup v2 with no limits, no GPUs. */
    static Rig host(Path root) {
        Rig r = new Rig(root);
        r.version = "v2";
        r.caps = ALL_CAPS;
        r.env = new LinkedHashMap<>();
        r.mount("/", "/", "ext4", "rw,relatime", "rw,errors=remount-ro");
        r.mount("/dev/shm", "/", "tmpfs", "rw,nosuid,nodev", "rw,inode64");
        r.mount(CG, "/", "cgroup2", "rw,nosuid,nodev,noexec,relatime", "rw,nsdelegate,memory_recursiveprot");
        r.put("/proc/self/cgroup", "0::/user.slice/user-1000.slice/session-3.scope\n");
        r.put(CG + "/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
        String leaf = r.v2leaf = CG + "/user.slice/user-1000.slice/session-3.scope";
        r.put(leaf + "/memory.max", "max\n").put(leaf + "/memory.current", 2 * GIB + "\n").put(leaf + "/memory.high", "max\n")
                .put(leaf + "/memory.swap.max", "max\n").put(leaf + "/memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n")
                .put(leaf + "/cpu.max", "max 100000\n").put(leaf + "/cpu.weight", "100\n").put(leaf + "/pids.max", "max\n")
                .put(leaf + "/pids.current", "40\n");
        r.put(CG + "/user.slice/pids.max", "max\n").put(CG + "/user.slice/pids.current", "300\n");
        r.put("/proc/1/cmdline", "/sbin/init\0splash\0").put("/proc/1/comm", "systemd\n").put("/proc/2/comm", "kthreadd\n");
        r.dir("/dev/pts");
        for (String ns : NamespaceReader.KINDS) {
            String link = ns + ":[40265318" + (30 + NamespaceReader.KINDS.indexOf(ns)) + "]";
            r.link("/proc/self/ns/" + ns, link).link("/proc/1/ns/" + ns, link);
        }
        r.put("/proc/self/uid_map", "         0          0 4294967295\n");
        return r.write();
    }

    /** What Docker sets up around every container: overlay root, /.dockerenv, /dev/shm, GPUs, namespaces, tini. */
    private void container() {
        mount("/", "/", "overlay", "rw,relatime", "rw,lowerdir=/var/lib/docker/overlay2/l/A:/var/lib/docker/overlay2/l/B,upperdir=/u,workdir=/w");
        mount("/dev/shm", "/", "tmpfs", "rw,nosuid,nodev,noexec,relatime", "rw,size=" + 16 * GIB / 1024 + "k,inode64");
        put("/.dockerenv", "");
        put("/proc/1/cmdline", "/sbin/docker-init\0--\0python\0train.py\0").put("/proc/1/comm", "docker-init\n")
                .put("/proc/2/comm", "python\n");
        for (int g = 0; g < 8; g++) {
            put("/dev/nvidia" + g, "");
            String bdf = String.format("0000:%02x:00.0", 0x18 + g * 0x10);
            put("/sys/bus/pci/devices/" + bdf + "/vendor", "0x10de\n").put("/sys/bus/pci/devices/" + bdf + "/class", "0x030200\n");
        }
        put("/dev/nvidiactl", "").put("/dev/nvidia-uvm", "");
        put("/sys/bus/pci/devices/0000:00:00.0/vendor", "0x8086\n").put("/sys/bus/pci/devices/0000:00:00.0/class", "0x060000\n");
        for (String ns : NamespaceReader.KINDS) {
            String link = ns + ":[40265322" + (10 + NamespaceReader.KINDS.indexOf(ns)) + "]";
            link("/proc/self/ns/" + ns, link).link("/proc/1/ns/" + ns, link);
        }
        put("/proc/self/uid_map", "         0          0 4294967295\n");
    }

    /** The classic broken container: 64 MiB /dev/shm, 2 CPUs of quota on 64, pids.max 64, memlock 64 KiB, no CAP_IPC_LOCK. */
    Rig tight() {
        shm(64 * MIB);
        cpuQuota(200000, 100000);
        pidsMax(64);
        memlock = 64 * 1024;
        caps = DOCKER_CAPS;
        return write();
    }

    // ---- changes ----

    /** Moves this process to another v2 cgroup (a path /proc/self/cgroup would give), creating it. */
    Rig v2cgroup(String path) {
        v2leaf = (CG + path).replaceAll("/$", "");
        put("/proc/self/cgroup", "0::" + path + "\n");
        return dir(v2leaf);
    }

    Rig mount(String point, String root, String type, String options, String superOptions) {
        mounts.put(point, root + " " + point + " " + options + " - " + type + " " + type + " " + superOptions);
        return version == null ? this : write();
    }

    Rig unmount(String point) {
        mounts.remove(point);
        return write();
    }

    Rig shm(long bytes) {
        return mount("/dev/shm", "/", "tmpfs", "rw,nosuid,nodev,noexec,relatime", "rw,size=" + bytes / 1024 + "k,inode64");
    }

    /** The folder of this process's cgroup for a controller. */
    String cgdir(String controller) {
        if (version.equals("v2")) return v2leaf;
        return CG + "/" + (controller.equals("cpu") ? "cpu,cpuacct" : controller);
    }

    Rig cpuQuota(long quota, long period) {
        if (version.equals("v2")) return put(cgdir("cpu") + "/cpu.max", quota + " " + period + "\n");
        return put(cgdir("cpu") + "/cpu.cfs_quota_us", quota + "\n").put(cgdir("cpu") + "/cpu.cfs_period_us", period + "\n");
    }

    Rig throttled(long periods, long throttled, long usec) {
        if (version.equals("v2")) {
            return put(cgdir("cpu") + "/cpu.stat", "usage_usec 1\nnr_periods " + periods + "\nnr_throttled " + throttled + "\nthrottled_usec " + usec + "\n");
        }
        return put(cgdir("cpu") + "/cpu.stat", "nr_periods " + periods + "\nnr_throttled " + throttled + "\nthrottled_time " + usec * 1000 + "\n");
    }

    Rig pidsMax(long max) {
        return put(cgdir("pids") + "/pids.max", max + "\n");
    }

    Rig memory(long limit, long current) {
        if (version.equals("v2")) return put(cgdir("memory") + "/memory.max", limit + "\n").put(cgdir("memory") + "/memory.current", current + "\n");
        return put(cgdir("memory") + "/memory.limit_in_bytes", limit + "\n").put(cgdir("memory") + "/memory.usage_in_bytes", current + "\n");
    }

    Rig oomKills(long n) {
        if (version.equals("v2")) return put(cgdir("memory") + "/memory.events", "low 0\nhigh 0\nmax 3\noom 1\noom_kill " + n + "\n");
        return put(cgdir("memory") + "/memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill " + n + "\n");
    }

    Rig memlock(long bytes) {
        memlock = bytes;
        return write();
    }

    Rig nofile(long soft) {
        nofile = soft;
        return write();
    }

    Rig nproc(long soft) {
        nproc = soft;
        return write();
    }

    Rig caps(String hex) {
        caps = hex;
        return write();
    }

    Rig uid(int u) {
        uid = String.valueOf(u);
        return write();
    }

    Rig cpus(String list) {
        cpus = list;
        return write();
    }

    Rig pid1(String... argv) {
        return put("/proc/1/cmdline", String.join("\0", argv) + "\0").put("/proc/1/comm", argv[0].substring(argv[0].lastIndexOf('/') + 1) + "\n");
    }

    Rig noGpus() {
        for (int g = 0; g < 8; g++) remove("/dev/nvidia" + g);
        return this;
    }

    // ---- reading ----

    FsRoot fs() {
        return FsRoot.open(root.toString());
    }

    LiveProcess live() {
        return LiveProcess.of(env, liveShm, liveShmUsed);
    }

    ContainerFacts read() {
        return ContainerReader.read(fs(), live());
    }

    ContainerRun run() {
        return ContainerRun.read(fs(), live(), null, null, null);
    }

    List<Finding> findings() {
        return run().findings();
    }

    /** The findings about one subject ("/dev/shm", "pids"...). */
    List<Finding> about(String subject) {
        return findings().stream().filter(f -> f.subject().equals(subject)).toList();
    }

    // ---- the files that depend on several settings ----

    private Rig write() {
        StringBuilder mi = new StringBuilder();
        int id = 100;
        for (String line : mounts.values()) mi.append(id++).append(" 99 0:").append(id).append(' ').append(line).append('\n');
        put("/proc/self/mountinfo", mi.toString());
        put("/proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units     \n"
                + "Max stack size            8388608              unlimited            bytes     \n"
                + "Max processes             " + lim(nproc) + lim(nproc) + "processes \n"
                + "Max open files            " + lim(nofile) + lim(nofile) + "files     \n"
                + "Max locked memory         " + lim(memlock) + lim(memlock) + "bytes     \n");
        put("/proc/self/status", "Name:\tjava\nUmask:\t0022\nState:\tR (running)\nPid:\t7\nUid:\t" + uid + "\t" + uid + "\t" + uid + "\t" + uid
                + "\nCapInh:\t0000000000000000\nCapPrm:\t" + caps + "\nCapEff:\t" + caps + "\nCpus_allowed:\tffffffff,ffffffff\nCpus_allowed_list:\t"
                + cpus + "\nMems_allowed_list:\t0\n");
        put("/proc/meminfo", "MemTotal:       " + 512 * GIB / 1024 + " kB\nMemFree:        " + 400 * GIB / 1024 + " kB\n");
        return this;
    }

    private static String lim(long v) {
        return String.format("%-21s", v < 0 ? "unlimited" : String.valueOf(v));
    }
}
