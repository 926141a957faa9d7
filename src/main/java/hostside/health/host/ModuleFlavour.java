package hostside.health.host;

/**
 * Which of NVIDIA's two Linux kernel modules is loaded. Since R560 the open modules are the
 * default and Blackwell and later GPUs work only with them (NVIDIA driver README, "Using the
 * NVIDIA Linux Open GPU Kernel Modules", 560.35.03).
 */
public enum ModuleFlavour {
    /** The open modules, "dual licensed MIT/GPLv2". */
    OPEN,
    /** The proprietary ("closed") modules. */
    PROPRIETARY,
    /** No version line and no taint letter that says which. */
    UNKNOWN
}
