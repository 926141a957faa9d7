package hostside.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import hostside.fs.FsRoot;
import hostside.fs.Recorder;

/** The machine's identity as a hash: which file it comes from, in which order, and that no snapshot holds the file. */
class MachineIdentityTest {
    @TempDir
    Path tmp;

    static final String MACHINE_ID = "0123456789abcdef0123456789abcdef";
    static final String PRODUCT_UUID = "4c4c4544-0042-3510-8051-b4c04f4d3732";
    static final String BOOT_ID = "9e1c7d2a-5b3f-4e8a-a1d0-6f2b8c4e7a91";

    /** A recorded machine in a folder: its host name and the identity files given, DMI behind its real link. */
    static Path recording(Path dir, String host, Map<String, String> identity) throws IOException {
        Files.createDirectories(dir.resolve("proc/sys/kernel/random"));
        Files.writeString(dir.resolve("proc/sys/kernel/hostname"), host + "\n");
        Files.createDirectories(dir.resolve("sys/devices/virtual/dmi/id"));
        Files.writeString(dir.resolve("sys/devices/virtual/dmi/id/product_name"), "KVM\n");
        Files.createDirectories(dir.resolve("sys/class/dmi"));
        Files.createSymbolicLink(dir.resolve("sys/class/dmi/id"), Path.of("../../devices/virtual/dmi/id"));
        for (var e : identity.entrySet()) {
            Path p = dir.resolve(e.getKey().substring(1).replace("sys/class/dmi/id", "sys/devices/virtual/dmi/id"));
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue() + "\n");
        }
        return dir;
    }

    MachineIdentity read(Map<String, String> identity) throws IOException {
        return MachineIdentity.read(FsRoot.open(recording(Files.createTempDirectory(tmp, "m"), "vm", identity).toString()));
    }

    @Test
    void machineIdFirstThenTheDmiUuidThenTheBootId() throws IOException {
        Map<String, String> all = Map.of("/etc/machine-id", MACHINE_ID, "/sys/class/dmi/id/product_uuid", PRODUCT_UUID,
                "/proc/sys/kernel/random/boot_id", BOOT_ID);
        MachineIdentity m = read(all);
        assertThat(m.source()).isEqualTo(MachineIdentity.Source.MACHINE_ID);
        assertThat(m.sha256()).matches("[0-9a-f]{64}");
        assertThat(m.id()).matches("[0-9a-f]{16}").isEqualTo(m.sha256().substring(0, 16));
        assertThat(m.nameFor("vm")).isEqualTo("vm-" + m.sha256().substring(0, 4));
        assertThat(m.note()).isEmpty();

        MachineIdentity dmi = read(Map.of("/sys/class/dmi/id/product_uuid", PRODUCT_UUID, "/proc/sys/kernel/random/boot_id", BOOT_ID));
        assertThat(dmi.source()).isEqualTo(MachineIdentity.Source.DMI_PRODUCT_UUID);
        assertThat(dmi.note()).contains("/etc/machine-id missing").contains("product_uuid used");

        MachineIdentity boot = read(Map.of("/proc/sys/kernel/random/boot_id", BOOT_ID));
        assertThat(boot.source()).isEqualTo(MachineIdentity.Source.BOOT_ID);
        assertThat(boot.note()).contains("changes at every boot");

        MachineIdentity none = read(Map.of());
        assertThat(none.source()).isEqualTo(MachineIdentity.Source.NONE);
        assertThat(none.sha256()).isEmpty();
        assertThat(none.id()).isEmpty();
        assertThat(none.nameFor("vm")).isEqualTo("vm");
        assertThat(none.note()).contains("host name alone");

        // each source hashes to its own id
        assertThat(java.util.Set.of(m.id(), dmi.id(), boot.id())).hasSize(3);
    }

    @Test
    void placeholdersAreNoIdentity() throws IOException {
        // systemd's first-boot placeholder, an empty file, a DMI UUID of zeros (cheap boards): passed over
        MachineIdentity m = read(Map.of("/etc/machine-id", "uninitialized", "/sys/class/dmi/id/product_uuid",
                "00000000-0000-0000-0000-000000000000", "/proc/sys/kernel/random/boot_id", BOOT_ID));
        assertThat(m.source()).isEqualTo(MachineIdentity.Source.BOOT_ID);
        assertThat(m.note()).contains("/etc/machine-id unreadable or not an id");
        assertThat(read(Map.of("/etc/machine-id", "")).source()).isEqualTo(MachineIdentity.Source.NONE);
    }

    @Test
    void theSameIdHashesTheSameAndIsNotItsPlainSha256() throws Exception {
        MachineIdentity a = read(Map.of("/etc/machine-id", MACHINE_ID));
        MachineIdentity b = read(Map.of("/etc/machine-id", MACHINE_ID));
        MachineIdentity c = read(Map.of("/etc/machine-id", MACHINE_ID.replace('0', '1')));
        assertThat(a.sha256()).isEqualTo(b.sha256()).isNotEqualTo(c.sha256());
        String plain = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(MACHINE_ID.getBytes(StandardCharsets.UTF_8)));
        String withNewline = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest((MACHINE_ID + "\n").getBytes(StandardCharsets.UTF_8)));
        assertThat(a.sha256()).isNotEqualTo(plain).isNotEqualTo(withNewline).doesNotContain(MACHINE_ID);
    }

    /** A snapshot keeps the hash, never the file, so a --root read of it finds the same identity. */
    @Test
    void aSnapshotHoldsTheHashNotTheIdAndReadsBackTheSame() throws IOException {
        Path box = recording(tmp.resolve("box"), "vm", Map.of("/etc/machine-id", MACHINE_ID,
                "/sys/class/dmi/id/product_uuid", PRODUCT_UUID, "/proc/sys/kernel/random/boot_id", BOOT_ID));
        FsRoot fs = FsRoot.open(box.toString());
        Recorder r = fs.record();
        MachineIdentity before = MachineIdentity.record(fs);
        // a reader that reads the files the ordinary way records nothing of them either
        assertThat(fs.text("/etc/machine-id")).contains(MACHINE_ID);
        assertThat(fs.text("/sys/class/dmi/id/product_uuid")).contains(PRODUCT_UUID);
        assertThat(fs.text("/proc/sys/kernel/random/boot_id")).contains(BOOT_ID);
        fs.list("/sys/class/dmi/id");
        Path out = tmp.resolve("box.tar.gz");
        r.writeTarGz(out, "vm");
        String tar = gunzipped(out);
        assertThat(tar).contains("vm/hostside/machine-id.sha256").contains(before.sha256() + "  /etc/machine-id")
                .doesNotContain(MACHINE_ID).doesNotContain(PRODUCT_UUID).doesNotContain(BOOT_ID);

        MachineIdentity after = MachineIdentity.read(FsRoot.open(out.toString()));
        assertThat(after.sha256()).isEqualTo(before.sha256());
        assertThat(after.source()).isEqualTo(MachineIdentity.Source.MACHINE_ID);
        assertThat(after.fromSnapshot()).isTrue();
        assertThat(after.nameFor("vm")).isEqualTo(before.nameFor("vm"));
    }

    @Test
    void aDamagedRecordedHashIsPassedOver() throws IOException {
        Path box = recording(tmp.resolve("box"), "vm", Map.of("/proc/sys/kernel/random/boot_id", BOOT_ID));
        Files.createDirectories(box.resolve("hostside"));
        Files.writeString(box.resolve("hostside/machine-id.sha256"), "not a hash  /etc/passwd\n");
        MachineIdentity m = MachineIdentity.read(FsRoot.open(box.toString()));
        assertThat(m.source()).isEqualTo(MachineIdentity.Source.BOOT_ID);
        assertThat(m.fromSnapshot()).isFalse();
        assertThat(m.note()).contains("machine-id.sha256 is not a hash");
    }

    /** This machine: whatever its identity is, the snapshot gives the same one back, and holds none of the files. */
    @Test
    void thisMachine() throws IOException {
        FsRoot live = FsRoot.live();
        Recorder r = live.record();
        MachineIdentity before = MachineIdentity.record(live);
        Host.read(live); // a recording needs proc/ to be one
        // Linux always has a boot id, so a live machine always has an identity
        assertThat(before.source()).isNotEqualTo(MachineIdentity.Source.NONE);
        Path out = tmp.resolve("live.tar.gz");
        r.writeTarGz(out, "live");
        assertThat(MachineIdentity.read(FsRoot.open(out.toString())).sha256()).isEqualTo(before.sha256());
        String tar = gunzipped(out);
        for (MachineIdentity.Source s : MachineIdentity.Source.values()) {
            if (s == MachineIdentity.Source.NONE || !Files.isReadable(Path.of(s.path))) continue;
            String raw = Files.readString(Path.of(s.path)).strip();
            if (!raw.isEmpty()) assertThat(tar).as(s.path).doesNotContain(raw);
        }
    }

    static String gunzipped(Path tarGz) throws IOException {
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(tarGz))) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
