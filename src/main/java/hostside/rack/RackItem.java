package hostside.rack;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The rack checklist's items, in the order the checklist prints them: the machine's memory and
 * kernel settings first, then the GPUs' link, fabric and failure domain (../design/rack.md, 1.3).
 * The ids are part of the contract (docs/schema/rack.schema.json): scripts read them from {@code --json}.
 */
public enum RackItem {
    BASE_PAGE_SIZE("base_page_size", "base page size"),
    THP("thp", "transparent huge pages"),
    INIT_ON_ALLOC("init_on_alloc", "init_on_alloc"),
    NUMA_BALANCING("numa_balancing", "NUMA balancing"),
    GPU_MEMORY_MODE("gpu_memory_mode", "GPU memory: NUMA or CDMM"),
    NODE_ROLES("node_roles", "NUMA node roles"),
    BINDING("binding", "binding per GPU"),
    PROCESS_PLACEMENT("process_placement", "this process's placement"),
    CPU_GOVERNOR("cpu_governor", "CPU frequency governor"),
    POWER_METER_CAP("power_meter_cap", "power meter cap"),
    IOMMU("iommu", "IOMMU"),
    PCI_POWER("pci_power", "PCI runtime power"),
    PERSISTENCE("persistence", "persistence mode"),
    C2C_LINK("c2c_link", "C2C link"),
    FABRIC_STATE("fabric_state", "fabric state"),
    FABRIC_MANAGER("fabric_manager", "fabric manager"),
    IMEX("imex", "IMEX"),
    FABRIC_READINESS("fabric_readiness", "fabric readiness"),
    NVLS("nvls", "NVLS (multicast)"),
    GPUDIRECT("gpudirect", "GPUDirect RDMA"),
    FAILURE_DOMAIN("failure_domain", "failure domain"),
    MEMORY_BANDWIDTH("memory_bandwidth", "CPU memory bandwidth");

    private final String id;
    private final String title;

    RackItem(String id, String title) {
        this.id = id;
        this.title = title;
    }

    @JsonValue
    public String id() {
        return id;
    }

    public String title() {
        return title;
    }

    @com.fasterxml.jackson.annotation.JsonCreator
    public static RackItem parse(String id) {
        for (RackItem i : values()) if (i.id.equals(id)) return i;
        throw new IllegalArgumentException("\"" + id + "\" is not a rack checklist item");
    }
}
