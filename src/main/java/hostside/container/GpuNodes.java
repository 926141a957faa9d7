package hostside.container;

import java.util.List;

import hostside.container.ContainerFacts.Devices;
import hostside.fs.FsRoot;

/**
 * The NVIDIA device nodes this process can open (the container runtime adds them with --gpus;
 * without them CUDA finds no device), against the GPUs on the PCI bus, which sysfs shows to a
 * container as it is on the host. NVML is not loaded: the nodes and the environment are the question.
 */
final class GpuNodes {
    static final String NVIDIA_VENDOR = "0x10de";

    private GpuNodes() {}

    static Devices read(FsRoot fs, LiveProcess live) {
        List<String> nodes = null;
        Boolean ctl = null, uvm = null;
        if (fs.isDirectory("/dev")) {
            nodes = fs.list("/dev").stream().filter(n -> n.matches("nvidia\\d+")).map(n -> "/dev/" + n).toList();
            ctl = fs.exists("/dev/nvidiactl");
            uvm = fs.exists("/dev/nvidia-uvm");
        }
        return new Devices(nodes, ctl, uvm, pciGpus(fs), live.live(), live.env().get("CUDA_VISIBLE_DEVICES"),
                live.env().get("NVIDIA_VISIBLE_DEVICES"), fs.list("/sys/class/infiniband"));
    }

    /** Display controllers (class 0x03xxxx: VGA and 3D) from NVIDIA; null when the PCI bus is not readable. */
    private static Integer pciGpus(FsRoot fs) {
        if (!fs.isDirectory("/sys/bus/pci/devices")) return null;
        int n = 0;
        for (String d : fs.list("/sys/bus/pci/devices")) {
            String dir = "/sys/bus/pci/devices/" + d;
            if (fs.text(dir + "/vendor").filter(NVIDIA_VENDOR::equalsIgnoreCase).isPresent()
                    && fs.text(dir + "/class").filter(c -> c.startsWith("0x03")).isPresent()) n++;
        }
        return n;
    }

    /** How many GPUs a CUDA_VISIBLE_DEVICES value names: "" none, "0,1" two, "GPU-uuid,..." each; null for unset. */
    static Integer named(String value) {
        if (value == null) return null;
        String v = value.strip();
        if (v.isEmpty() || v.equals("none") || v.equals("void")) return 0;
        if (v.equals("all")) return null;
        int n = 0;
        for (String s : v.split(",")) {
            // CUDA stops at the first entry that is not a valid device: "-1" hides every later one
            if (s.strip().startsWith("-")) break;
            n++;
        }
        return n;
    }
}
