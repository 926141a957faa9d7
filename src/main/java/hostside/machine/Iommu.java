package hostside.machine;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import hostside.fs.FsRoot;

/**
 * Whether device DMA is translated by an IOMMU: off (no IOMMU in use), passthrough (identity
 * domains: devices see physical addresses) or translating (DMA domains: every GPU and NIC DMA
 * is remapped, and pinning large buffers costs IOMMU mappings), as each group's type file says
 * (Linux Documentation/ABI/testing/sysfs-kernel-iommu_groups: DMA and DMA-FQ translate, identity
 * does not). {@link TopologyRules#IOMMU} says what it means.
 *
 * @param state     off, passthrough, translating or mixed
 * @param hardware  IOMMU units the kernel registered (/sys/class/iommu): dmar0, ivhd0...
 * @param groups    IOMMU groups
 * @param domains   group count per default-domain type (identity, DMA, DMA-FQ, ...)
 * @param evidence  how the state was decided, for people
 * @param cmdline   the command line items about the IOMMU
 */
public record Iommu(String state, List<String> hardware, int groups, Map<String, Integer> domains, String evidence,
                    List<String> cmdline) {

    static Iommu read(FsRoot fs, List<KernelCmdline.Item> cmdlineItems) {
        List<String> hardware = fs.list("/sys/class/iommu");
        List<String> groups = fs.list("/sys/kernel/iommu_groups");
        Map<String, Integer> domains = new TreeMap<>();
        for (String g : groups) {
            String type = fs.text("/sys/kernel/iommu_groups/" + g + "/type").orElse("unknown");
            domains.merge(type, 1, Integer::sum);
        }
        List<String> cmd = cmdlineItems.stream().filter(i -> i.topic().equals("iommu")).map(KernelCmdline.Item::text).toList();
        // iommu=pt and iommu.passthrough=1 are the kernel's (Documentation/admin-guide/kernel-parameters.txt); the
        // "amd_iommu=pt" of many guides is not among amd_iommu='s documented values, so it is not taken as passthrough
        boolean ptOnCmdline = cmd.contains("iommu=pt") || cmd.contains("iommu.passthrough=1");
        String state, evidence;
        if (groups.isEmpty() && hardware.isEmpty()) {
            state = "off";
            evidence = "no IOMMU units and no IOMMU groups in /sys";
        } else if (groups.isEmpty()) {
            state = "off";
            evidence = hardware.size() + " IOMMU unit(s) registered but no IOMMU groups: DMA is not remapped";
        } else {
            int identity = domains.getOrDefault("identity", 0);
            int translating = domains.entrySet().stream().filter(e -> e.getKey().startsWith("DMA"))
                    .mapToInt(Map.Entry::getValue).sum();
            if (translating == 0 && identity > 0) {
                state = "passthrough";
                evidence = identity + " of " + groups.size() + " IOMMU groups use identity domains";
            } else if (translating > 0 && identity == 0) {
                state = "translating";
                evidence = translating + " of " + groups.size() + " IOMMU groups translate DMA (" + String.join(", ",
                        domains.keySet().stream().filter(k -> k.startsWith("DMA")).toList()) + ")";
            } else if (translating > 0) {
                state = "mixed";
                evidence = identity + " groups pass through, " + translating + " translate";
            } else if (ptOnCmdline) {
                state = "passthrough";
                evidence = groups.size() + " IOMMU groups, domain types unreadable; the command line asks for passthrough";
            } else {
                state = "unknown";
                evidence = groups.size() + " IOMMU groups, but their domain types are unreadable";
            }
        }
        return new Iommu(state, hardware, groups.size(), domains, evidence, cmd);
    }
}
