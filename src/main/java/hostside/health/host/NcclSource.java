package hostside.health.host;

/** Where a copy of NCCL was found. */
public enum NcclSource {
    /** A libnccl.so.X.Y.Z file in a library folder (the soname file NCCL's packages install). */
    LIBRARY,
    /** A pip wheel nvidia-nccl-cuNN in a site-packages or dist-packages folder (PyTorch's own NCCL). */
    WHEEL
}
