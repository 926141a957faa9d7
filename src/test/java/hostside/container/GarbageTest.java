package hostside.container;

import static hostside.container.Rig.CG;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.core.Finding;

/** Garbage in any file gives an unknown that names the file, never an exception or a finding. */
class GarbageTest {
    @TempDir
    Path tmp;

    @Test
    void garbledCgroupLimits() {
        Rig r = Rig.v2(tmp).tight().put(CG + "/memory.max", "lots\n").put(CG + "/cpu.max", "fast 100000\n").put(CG + "/pids.max", "-5\n")
                .put(CG + "/memory.events", "low 0\noom_kill many\n");
        ContainerFacts f = r.read();
        assertThat(f.memory().limit().value()).isNull();
        assertThat(f.memory().limit().unlimited()).isFalse();
        assertThat(f.memory().limit().source()).startsWith("unknown: " + CG + "/memory.max");
        assertThat(f.memory().oomKills()).isNull();
        assertThat(f.cpu().quotaCpus()).isNull();
        assertThat(f.cpu().quotaSource()).startsWith("unknown: " + CG + "/cpu.max is garbled");
        assertThat(f.pids().max().value()).isNull();
        assertThat(f.unknowns()).contains(CG + "/memory.max: not a number or \"max\": \"lots\"",
                CG + "/cpu.max: not \"quota period\" or \"max period\": \"fast 100000\"",
                CG + "/pids.max: not a number or \"max\": \"-5\"",
                CG + "/memory.events: oom_kill is not a count: \"many\"");
        assertThat(r.findings()).extracting(Finding::subject).doesNotContain("pids", "CPU quota", "memory");
    }

    @Test
    void garbledV1Files() {
        Rig r = Rig.v1(tmp).put(CG + "/cpu,cpuacct/cpu.cfs_quota_us", "soon\n").put(CG + "/memory/memory.limit_in_bytes", "9".repeat(25) + "\n")
                .put(CG + "/cpu,cpuacct/cpu.shares", "\u0001\u0002\n");
        ContainerFacts f = r.read();
        assertThat(f.cpu().quotaSource()).startsWith("unknown:");
        assertThat(f.memory().limit().source()).startsWith("unknown:");
        assertThat(f.cpu().shares()).isNull();
        assertThat(f.unknowns()).contains(CG + "/cpu,cpuacct/cpu.cfs_quota_us: not a quota: \"soon\"", CG + "/cpu,cpuacct/cpu.shares: not a number: \"??\"")
                .anyMatch(u -> u.startsWith(CG + "/memory/memory.limit_in_bytes: not a number: \"9999"));
    }

    @Test
    void aZeroPeriodIsGarbage() {
        ContainerFacts f = Rig.v1(tmp).cpuQuota(200000, 0).read();
        assertThat(f.cpu().quotaCpus()).isNull();
        assertThat(f.unknowns()).contains(CG + "/cpu,cpuacct/cpu.cfs_period_us: not a period: \"0\"");
    }

    @Test
    void garbledProcessFiles() {
        Rig r = Rig.v2(tmp).tight().put("/proc/self/limits", "Limit  Soft Limit  Hard Limit  Units\nMax locked memory   lots   lots   bytes\n")
                .put("/proc/self/status", "Name:\tjava\nUid:\tme\nCapEff:\tnot-hex\nCpus_allowed_list:\t0-x\n");
        ContainerFacts f = r.read();
        assertThat(f.limits().memlock()).isNull();
        assertThat(f.capabilities().ipcLock()).isNull();
        assertThat(f.capabilities().uid()).isNull();
        assertThat(f.cpu().visibleCpus()).isNull();
        assertThat(f.cpu().visibleList()).isNull();
        assertThat(f.unknowns()).contains("/proc/self/limits: Max locked memory is not soft, hard and unit: \"Max locked memory   lots   lots   bytes\"",
                "/proc/self/limits: no \"Max open files\" line (a truncated file?)", "/proc/self/status: CapEff is not a capability mask: \"not-hex\"",
                "/proc/self/status: Uid is not real, effective, saved and fs uids: \"me\"",
                "/proc/self/status: Cpus_allowed_list is not a list: \"0-x\"");
        assertThat(r.findings()).extracting(Finding::subject).doesNotContain("memlock", "pids", "CPU quota");
        assertThat(r.run().plan().threads()).isNull();
    }

    @Test
    void garbledMountsAndShmSize() {
        Rig r = Rig.v2(tmp).mount("/dev/shm", "/", "tmpfs", "rw", "rw,size=huge");
        ContainerFacts f = r.read();
        assertThat(f.shm().sizeBytes()).isNull();
        assertThat(f.shm().source()).startsWith("unknown: mountinfo: /dev/shm size=huge is not a size");
        Rig junk = Rig.v2(tmp.resolve("junk")).put("/proc/self/mountinfo", "\u0000\u0001 garbage\nno separator here\n")
                .put("/proc/self/cgroup", "::::\nnot a cgroup line\n");
        ContainerFacts j = junk.read();
        assertThat(j.cgroup().version()).isNull();
        assertThat(j.shm().sizeBytes()).isNull();
        assertThat(junk.findings()).isEmpty();
    }

    @Test
    void tmpfsSizes() {
        assertThat(ShmReader.tmpfsSize("65536k")).isEqualTo(64L << 20);
        assertThat(ShmReader.tmpfsSize("2g")).isEqualTo(2L << 30);
        assertThat(ShmReader.tmpfsSize("4096")).isEqualTo(4096);
        assertThat(ShmReader.tmpfsSize("50%")).isNull();
        assertThat(ShmReader.tmpfsSize("99999999999999999999k")).isNull();
        assertThat(ShmReader.tmpfsSize("")).isNull();
    }

    @Test
    void namedGpus() {
        assertThat(GpuNodes.named(null)).isNull();
        assertThat(GpuNodes.named("")).isZero();
        assertThat(GpuNodes.named("all")).isNull();
        assertThat(GpuNodes.named("0,1,3")).isEqualTo(3);
        assertThat(GpuNodes.named("GPU-5f3a,GPU-99aa")).isEqualTo(2);
        assertThat(GpuNodes.named("0,-1,2")).as("CUDA stops at the first invalid index").isEqualTo(1);
    }

    @Test
    void pid1Kinds() {
        assertThat(NamespaceReader.kind("/sbin/docker-init -- python train.py")).isEqualTo("init");
        assertThat(NamespaceReader.kind("/usr/lib/systemd/systemd --switched-root")).isEqualTo("init");
        assertThat(NamespaceReader.kind("catatonit -P")).isEqualTo("init");
        assertThat(NamespaceReader.kind("/bin/bash -c python train.py")).isEqualTo("shell");
        assertThat(NamespaceReader.kind("torchrun --nproc-per-node 8 train.py")).isEqualTo("program");
        assertThat(NamespaceReader.kind("  ")).isNull();
    }

    @Test
    void runtimeCgroupMarks() {
        assertThat(RuntimeDetector.mark("/kubepods.slice/kubepods-pod1.slice/cri-containerd-abc.scope")).isEqualTo("kubernetes");
        assertThat(RuntimeDetector.mark("/system.slice/docker-abc.scope")).isEqualTo("docker");
        assertThat(RuntimeDetector.mark("/docker/abc")).isEqualTo("docker");
        assertThat(RuntimeDetector.mark("/machine.slice/libpod-abc.scope/container")).isEqualTo("podman");
        assertThat(RuntimeDetector.mark("/lxc.payload.c1")).isEqualTo("lxc");
        assertThat(RuntimeDetector.mark("/user.slice/user-1000.slice/session-3.scope")).isNull();
        assertThat(RuntimeDetector.mark("/")).isNull();
    }
}
