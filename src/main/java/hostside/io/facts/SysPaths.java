package hostside.io.facts;

import java.util.regex.Pattern;

/** Reading /sys/devices paths: which PCI function a device hangs off, and path components. */
final class SysPaths {
    /** domain:bus:device.function; domains run to 8 hex digits on some machines (VMD, POWER). */
    static final Pattern BDF = Pattern.compile("[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");

    private SysPaths() {}

    /**
     * The PCI function a device sits on: the last domain:bus:device.function in its /sys/devices path
     * (bridges come before it); null for virtual devices.
     */
    static String pciAddress(String devicePath) {
        String found = null;
        for (String part : devicePath.split("/")) {
            if (BDF.matcher(part).matches()) found = part.toLowerCase();
        }
        return found;
    }

    static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    static String parent(String path) {
        int i = path.lastIndexOf('/');
        return i <= 0 ? "/" : path.substring(0, i);
    }

    /** What follows "N: " in the InfiniBand state files ("4: ACTIVE", "5: LinkUp"), or the text as it is. */
    static String afterColon(String s) {
        int i = s.indexOf(':');
        return i < 0 ? s.strip() : s.substring(i + 1).strip();
    }
}
