package hostside.checklist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import hostside.core.GarbageException;
import hostside.fs.FsRoot;

/** /dev/kmsg records, Xid lines, and which messages count as events. */
class KernelLogTest {

    @Test
    void aRecordWithContinuationLines() {
        KmsgRecord r = KmsgRecord.parse("3,1234,5678901234,-,caller=T123;NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n"
                + " SUBSYSTEM=pci\n DEVICE=+pci:0000:3b:00.0\n");
        assertThat(r.facility()).isZero();
        assertThat(r.level()).isEqualTo(3);
        assertThat(r.seq()).isEqualTo(1234);
        assertThat(r.timestampUs()).isEqualTo(5678901234L);
        assertThat(r.secondsSinceBoot()).isEqualTo(5678.901234);
        assertThat(r.message()).isEqualTo("NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.");
        KmsgRecord user = KmsgRecord.parse("14,2,3,c;a message; with a semicolon");
        assertThat(user.facility()).as("LOG_USER").isEqualTo(1);
        assertThat(user.level()).isEqualTo(6);
        assertThat(user.message()).isEqualTo("a message; with a semicolon");
    }

    @Test
    void recordGarbage() {
        for (String g : new String[] {"", "no semicolon", "6,1,2;too few", "x,1,2,-;m", "6,-1,2,-;m", "6,1,2.5,-;m", ";m"}) {
            assertThatThrownBy(() -> KmsgRecord.parse(g)).as(g).isInstanceOf(GarbageException.class).hasMessageStartingWith("not a /dev/kmsg record");
        }
    }

    @Test
    void xidLinesOfSeveralDrivers() {
        Xid fell = Xid.parse("NVRM: Xid (PCI:0000:3B:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.").orElseThrow();
        assertThat(fell.pci()).isEqualTo("0000:3b:00");
        assertThat(fell.code()).isEqualTo(79);
        assertThat(fell.pid()).isNull();
        assertThat(fell.processName()).isNull();
        assertThat(fell.hardware()).isTrue();
        assertThat(fell.meaning()).startsWith("GPU has fallen off the bus");

        Xid fault = Xid.parse("NVRM: Xid (PCI:0000:00:06): 31, pid=4242, name=python3, Ch 00000008, intr 00000000. MMU Fault: ENGINE GRAPHICS "
                + "GPCCLIENT_T1_0 faulted @ 0x7f12_34560000. Fault is of type FAULT_PDE ACCESS_TYPE_VIRT_READ").orElseThrow();
        assertThat(fault.pid()).isEqualTo(4242L);
        assertThat(fault.processName()).isEqualTo("python3");
        assertThat(fault.hardware()).isFalse();
        assertThat(fault.detail()).startsWith("pid=4242");

        // drivers before 450 wrote no "PCI:"
        Xid old = Xid.parse("NVRM: Xid (0000:02:00): 13, Graphics SM Warp Exception on (GPC 0, TPC 0): Out Of Range Address").orElseThrow();
        assertThat(old.pci()).isEqualTo("0000:02:00");
        assertThat(old.code()).isEqualTo(13);
        assertThat(old.meaning()).startsWith("graphics engine exception");

        assertThat(Xid.parse("NVRM: Xid (PCI:0000:00:06): 154, GPU recovery action changed").orElseThrow().meaning())
                .isEqualTo("see NVIDIA's Xid catalog");
        assertThat(Xid.parse("NVRM: loading NVIDIA UNIX x86_64 Kernel Module  580.95.05")).isEmpty();
        assertThat(Xid.parse("NVRM: Xid (PCI:0000:00:06): lots")).isEmpty();
    }

    @Test
    void everyCommonXidHasAMeaning() {
        for (int code : new int[] {13, 31, 43, 45, 48, 61, 62, 63, 64, 74, 79, 92, 94, 95, 119}) {
            Xid x = Xid.parse("NVRM: Xid (PCI:0000:00:06): " + code + ", detail").orElseThrow();
            assertThat(x.meaning()).as("Xid %d", code).isNotEqualTo("see NVIDIA's Xid catalog");
        }
        for (int app : new int[] {13, 31, 43, 45}) {
            assertThat(Xid.parse("NVRM: Xid (PCI:0000:00:06): " + app + ", x").orElseThrow().hardware()).as("Xid %d", app).isFalse();
        }
    }

    private static KernelEvent event(String message) {
        return KernelEvent.of(new KmsgRecord(0, 3, 1, 60_000_000L, message)).orElseThrow(() -> new AssertionError("no event: " + message));
    }

    @Test
    void oomKillsOfEveryKernelGeneration() {
        KernelEvent now = event("Out of memory: Killed process 4321 (python3) total-vm:85000000kB, anon-rss:80000000kB, file-rss:0kB, "
                + "shmem-rss:0kB, UID:1000 pgtables:160000kB oom_score_adj:0");
        assertThat(now.kind()).isEqualTo(KernelEvent.Kind.OOM_KILL);
        assertThat(now.pid()).isEqualTo(4321L);
        assertThat(now.process()).isEqualTo("python3");
        assertThat(now.atSeconds()).isEqualTo(60.0);
        assertThat(now.cgroupLimit()).as("the machine ran out").isFalse();
        KernelEvent cgroup = event("Memory cgroup out of memory: Killed process 77 (pt_data_worker) total-vm:1kB, anon-rss:1kB");
        assertThat(cgroup.process()).isEqualTo("pt_data_worker");
        assertThat(cgroup.cgroupLimit()).as("the job's own limit").isTrue();
        // before 5.x: "Kill process ... or sacrifice child", then a line of its own
        assertThat(event("Killed process 555 (python) total-vm:123kB, anon-rss:100kB, file-rss:0kB, shmem-rss:0kB").pid()).isEqualTo(555L);
        // the other lines about the same kill are not kills of their own
        assertThat(KernelEvent.of(new KmsgRecord(0, 3, 1, 1, "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),task=python3,pid=4321,uid=0"))).isEmpty();
        assertThat(KernelEvent.of(new KmsgRecord(0, 6, 1, 1, "oom_reaper: reaped process 4321 (python3), now anon-rss:0kB"))).isEmpty();
        assertThat(KernelEvent.of(new KmsgRecord(0, 4, 1, 1, "Out of memory: Kill process 555 (python) score 900 or sacrifice child"))).isEmpty();
    }

    @Test
    void hungTasksCrashesAndHardwareErrors() {
        KernelEvent hung = event("INFO: task pt:main:loop:812 blocked for more than 122 seconds.");
        assertThat(hung.kind()).isEqualTo(KernelEvent.Kind.HUNG_TASK);
        assertThat(hung.process()).as("a comm with colons").isEqualTo("pt:main:loop");
        assertThat(hung.pid()).isEqualTo(812L);

        KernelEvent seg = event("python3[4242]: segfault at 0 ip 00007f3a12345678 sp 00007ffd87654321 error 4 in libc.so.6[7f3a12200000+195000]");
        assertThat(seg.kind()).isEqualTo(KernelEvent.Kind.SEGFAULT);
        assertThat(seg.pid()).isEqualTo(4242L);
        assertThat(seg.process()).isEqualTo("python3");
        assertThat(event("traps: data loader[99] general protection fault ip:7f00 sp:7ffd error:0 in libtorch.so").process()).isEqualTo("data loader");
        assertThat(event("a.out[7] trap invalid opcode ip:401000 sp:7ffd error:0 in a.out[401000+1000]").pid()).isEqualTo(7L);

        assertThat(event("mce: [Hardware Error]: Machine check events logged").kind()).isEqualTo(KernelEvent.Kind.MCE);
        assertThat(event("[Hardware Error]: event severity: corrected").kind()).isEqualTo(KernelEvent.Kind.MCE);
        assertThat(event("EDAC MC0: 1 CE memory read error on CPU_SrcID#0_Ha#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x12345)").kind())
                .isEqualTo(KernelEvent.Kind.EDAC);
        assertThat(event("EDAC MC1: 1 UE memory scrubbing error on DIMM_B1").kind()).isEqualTo(KernelEvent.Kind.EDAC);
        // the drivers' start-up lines are not errors
        for (String quiet : List.of("EDAC MC: Ver: 3.0.0", "EDAC skx: ECC is disabled on imc 0", "mce_notify_irq: 1 callbacks suppressed",
                "EXT4-fs (vda): mounted filesystem", "NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  580.95.05")) {
            assertThat(KernelEvent.of(new KmsgRecord(0, 6, 1, 1, quiet))).as(quiet).isEqualTo(Optional.empty());
        }
    }

    @Test
    void aLongMessageIsShortened() {
        KernelEvent e = event("mce: " + "x".repeat(500));
        assertThat(e.text()).hasSize(KernelEvent.MAX_TEXT).endsWith("...");
    }

    @Test
    void rawRecordsWithGarbageAreCountedNotKept() {
        KernelLog log = KernelLog.parse(List.of("6,1,100,-;fine", "garbage", "6,2,200,-;also fine\n KEY=v"), 12.5);
        assertThat(log.read()).isTrue();
        assertThat(log.records()).extracting(KmsgRecord::seq).containsExactly(1L, 2L);
        assertThat(log.garbled()).isEqualTo(1);
        assertThat(log.nowSeconds()).isEqualTo(12.5);
    }

    @Test
    void aRecordedMachineHasNoKernelLog(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Files.createDirectories(dir.resolve("proc"));
        KernelLog log = KernelLog.read(FsRoot.open(dir.toString()));
        assertThat(log.read()).isFalse();
        assertThat(log.notRead()).startsWith("a recorded machine has no kernel log");
    }

    @Test
    void thisMachinesLogReadsAsRecordsOrSaysWhyNot() {
        KernelLog log = KernelLog.read(FsRoot.live());
        if (!log.read()) {
            // a CI container without CAP_SYSLOG, or without /dev/kmsg: a reason, in one line
            assertThat(log.notRead()).startsWith("/dev/kmsg: ").doesNotContain("\n");
            return;
        }
        assertThat(log.garbled()).as("every record the kernel gave parses").isZero();
        assertThat(log.nowSeconds()).isNotNull();
        List<Long> seqs = log.records().stream().map(KmsgRecord::seq).toList();
        assertThat(seqs).isSorted();
        // an empty log is possible (a container's device that reads as empty); a full one ages sanely
        if (!seqs.isEmpty()) assertThat(log.records().getLast().secondsSinceBoot()).isLessThanOrEqualTo(log.nowSeconds() + 1);
    }
}
