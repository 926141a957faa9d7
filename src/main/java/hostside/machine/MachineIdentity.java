package hostside.machine;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import hostside.fs.FsRoot;
import hostside.fs.Recorder;

/**
 * Which machine this is, as a stable hash, never the raw id (docs/contract.md, Reports): cloud VMs
 * are often all called "vm" or "localhost", and two reports named by the host name alone
 * overwrite each other. The hash is SHA-256 over {@link #PREFIX} and the identity, so it is not the
 * raw id and matches no other tool's hash of the same id.
 *
 * @param source  where the identity came from ({@link Source#NONE}: nowhere, then {@code sha256} is "")
 * @param sha256  the full hash, 64 hex digits
 * @param fromSnapshot true when the hash was read from a snapshot's {@link #RECORDED} file
 * @param note    why the identity is the one it is, or missing ("" when it is /etc/machine-id read here)
 */
public record MachineIdentity(Source source, String sha256, boolean fromSnapshot, String note) {

    /** Where a machine's identity is read from, most stable first. */
    public enum Source {
        MACHINE_ID("/etc/machine-id"),
        DMI_PRODUCT_UUID("/sys/class/dmi/id/product_uuid"),
        BOOT_ID("/proc/sys/kernel/random/boot_id"),
        NONE("");

        public final String path;

        Source(String path) {
            this.path = path;
        }

        static Optional<Source> ofPath(String p) {
            for (Source s : values()) if (s != NONE && s.path.equals(p)) return Optional.of(s);
            return Optional.empty();
        }
    }

    /** Fixed, so the same machine always hashes the same; hostside's own, so the hash is not another tool's. */
    static final String PREFIX = "hostside machine identity\0";
    /** The hash a snapshot keeps instead of the raw id (docs/snapshot.md), in sha256sum's format: "HASH  PATH". */
    public static final String RECORDED = Recorder.OWN_FOLDER + "/machine-id.sha256";
    /** Hex digits of the hash kept in the report's JSON: 64 bits, no two machines of a fleet alike. */
    static final int ID_DIGITS = 16;
    /** Hex digits of the hash in the report's file name. */
    static final int NAME_DIGITS = 4;

    private static final Pattern MACHINE_ID = Pattern.compile("[0-9a-fA-F]{32}");
    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern RECORDED_LINE = Pattern.compile("([0-9a-f]{64})  (/\\S+)");

    /**
     * /etc/machine-id, else the DMI product UUID (readable by root only), else the boot id; under
     * --root a snapshot's recorded hash first, since a snapshot holds none of the three. None of
     * them is recorded by a snapshot; the snapshot gets the hash instead ({@link #record}).
     */
    public static MachineIdentity read(FsRoot fs) {
        StringBuilder why = new StringBuilder();
        if (!fs.isLive()) {
            Optional<MachineIdentity> recorded = recorded(fs, why);
            if (recorded.isPresent()) return recorded.get();
        }
        for (Source s : Source.values()) {
            if (s == Source.NONE) continue;
            Optional<String> h = fs.sha256Unrecorded(s.path, PREFIX, v -> valid(s, v));
            if (h.isPresent()) {
                String note = s == Source.MACHINE_ID ? "" : why + s.path + " used";
                if (s == Source.BOOT_ID) note += ", which changes at every boot";
                return new MachineIdentity(s, h.get(), false, note.strip());
            }
            why.append(missing(fs, s)).append("; ");
        }
        return new MachineIdentity(Source.NONE, "", false, why + "so the name is the host name alone");
    }

    /** Puts the hash into the snapshot being recorded, where a --root read of it finds it (nothing when there is no identity). */
    public static MachineIdentity record(FsRoot fs) {
        MachineIdentity id = read(fs);
        if (id.source != Source.NONE) fs.recordDerived(RECORDED, id.sha256 + "  " + id.source.path + "\n");
        return id;
    }

    private static Optional<MachineIdentity> recorded(FsRoot fs, StringBuilder why) {
        Optional<String> line = fs.text(RECORDED);
        if (line.isEmpty()) return Optional.empty();
        Matcher m = RECORDED_LINE.matcher(line.get());
        Optional<Source> s = m.matches() ? Source.ofPath(m.group(2)) : Optional.empty();
        if (s.isEmpty()) {
            // a recording is input from anyone: a damaged file is passed over, and said so
            why.append(RECORDED).append(" is not a hash of an identity; ");
            return Optional.empty();
        }
        String note = "the hash of " + s.get().path + " recorded in the snapshot" + (s.get() == Source.BOOT_ID ? ", which changes at every boot" : "");
        return Optional.of(new MachineIdentity(s.get(), m.group(1), true, note));
    }

    /** A placeholder is not an identity: systemd's "uninitialized", an empty file, a DMI UUID of all zeros or all Fs. */
    static boolean valid(Source s, String v) {
        boolean shaped = s == Source.MACHINE_ID ? MACHINE_ID.matcher(v).matches() : UUID.matcher(v).matches();
        return shaped && !v.replace("-", "").matches("(?i)0+|f+");
    }

    private static String missing(FsRoot fs, Source s) {
        // exists() reads nothing of the file; it tells a missing file from an unusable one
        if (!fs.exists(s.path)) return s.path + " missing";
        return s.path + (s == Source.DMI_PRODUCT_UUID ? " unreadable (root only) or not an id" : " unreadable or not an id");
    }

    /** The id kept in the report's JSON ("" when there is none). */
    public String id() {
        return sha256.isEmpty() ? "" : sha256.substring(0, ID_DIGITS);
    }

    /** The host name, "-" and the hash's first four hex digits; the host name alone when there is no identity. */
    public String nameFor(String host) {
        return sha256.isEmpty() ? host : host + "-" + sha256.substring(0, NAME_DIGITS);
    }
}
