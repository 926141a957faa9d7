package hostside.gpu.peer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import hostside.gpu.cuda.Cuda;

/** The peer facts of every ordered pair of GPUs the driver sees; each refusal is an unknown, never an exception. */
public final class PeerAccessReader {
    private PeerAccessReader() {}

    public static List<PeerAccess> read(Cuda cuda) {
        int n = cuda.deviceCount();
        List<Integer> devices = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            devices.add(cuda.device(i));
            addresses.add(cuda.pciBusId(devices.getLast()));
        }
        List<PeerAccess> pairs = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (a != b) pairs.add(pair(cuda, a, b, devices.get(a), devices.get(b), addresses.get(a), addresses.get(b)));
            }
        }
        return pairs;
    }

    static PeerAccess pair(Cuda cuda, int from, int to, int fromDevice, int toDevice, String fromAddress, String toAddress) {
        Map<String, String> unknown = new LinkedHashMap<>();
        Cuda.Answer can = note(unknown, "canAccessPeer", cuda.canAccessPeer(fromDevice, toDevice));
        Cuda.Answer rank = note(unknown, "performanceRank", cuda.p2pAttribute(Cuda.P2P_PERFORMANCE_RANK, fromDevice, toDevice));
        Cuda.Answer access = note(unknown, "accessSupported", cuda.p2pAttribute(Cuda.P2P_ACCESS_SUPPORTED, fromDevice, toDevice));
        Cuda.Answer atomics = note(unknown, "nativeAtomics", cuda.p2pAttribute(Cuda.P2P_NATIVE_ATOMIC_SUPPORTED, fromDevice, toDevice));
        Cuda.Answer arrays = note(unknown, "cudaArrayAccess", cuda.p2pAttribute(Cuda.P2P_CUDA_ARRAY_ACCESS_SUPPORTED, fromDevice, toDevice));
        return new PeerAccess(from, to, fromAddress, toAddress, flag(can), rank.value(), flag(access), flag(atomics), flag(arrays), java.util.Collections.unmodifiableMap(unknown));
    }

    private static Cuda.Answer note(Map<String, String> unknown, String field, Cuda.Answer a) {
        if (!a.known()) unknown.put(field, a.error());
        return a;
    }

    private static Boolean flag(Cuda.Answer a) {
        return a.known() ? a.value() != 0 : null;
    }
}
