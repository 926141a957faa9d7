package hostside.health.host;

import java.util.List;

/**
 * One comparison of versions that must agree.
 *
 * @param check     what is compared
 * @param agreement the outcome
 * @param expected  the version the others must equal (the kernel module's for the driver's parts);
 *                  null where all must merely be equal (NCCL) or it is unknown
 * @param found     every version compared, with where it was found
 */
public record VersionCheck(Check check, Agreement agreement, String expected, List<VersionSource> found) {

    /** The comparisons {@link VersionAgreement} makes. */
    public enum Check {
        /**
         * The NVML library against the kernel module: NVML answers NVML_ERROR_LIB_RM_VERSION_MISMATCH
         * (18), "RM detects a driver/library version mismatch", when they differ (nvml.h, NVIDIA/go-nvml).
         */
        NVML_LIBRARY,
        /**
         * libcuda against the kernel module: both ship in one driver package, and cuda.h's
         * CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803) is "a mismatch between the versions of the display
         * driver and the CUDA driver". CUDA's forward compatibility, a newer libcuda beside an older
         * module on data-centre GPUs, comes from the cuda-compat folder (/usr/local/cuda-X/compat),
         * which is not among the folders searched, so a system libcuda must equal the module.
         */
        CUDA_LIBRARY,
        /**
         * The fabric manager package's upstream version against the kernel module: "the version of
         * fabricmanager must match the NVIDIA driver installed" (NVIDIA/yum-packaging-fabric-manager
         * README); the fabric manager user guide says the same of its daemon.
         */
        FABRIC_MANAGER,
        /**
         * Every copy of NCCL found on the node (library files, pip wheels, the libnccl2 package): a
         * program loads one of them, and which depends on its library path; several versions on one
         * node is how two ranks come to run different NCCLs (proposal: a fact to show, not a rule).
         */
        NCCL
    }
}
