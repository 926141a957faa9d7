package hostside.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * cuInit runs out of memory under a small `ulimit -v` (the driver reserves address space at start:
 * 4 GiB was too little on the H100 VM); the reason a user reads names the limit, not only the code.
 */
class AddressLimitTest {
    /** Prints what Cuda adds to a cuInit failure of {@code args[0]}, in a JVM started under the limit. */
    public static void main(String[] args) {
        System.out.print(Cuda.underAddressLimit(Integer.parseInt(args[0])));
    }

    private static String underLimit(String kib, int code) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String jvm = "'" + java + "' --enable-native-access=ALL-UNNAMED -XX:CompressedClassSpaceSize=32m -XX:ReservedCodeCacheSize=48m -Xmx64m -Xlog:disable"
                + " -cp '" + System.getProperty("java.class.path") + "' " + AddressLimitTest.class.getName() + " " + code;
        Process p = new ProcessBuilder("bash", "-c", "ulimit -v " + kib + " && exec " + jvm).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void outOfMemoryUnderALimitNamesIt() throws Exception {
        assertThat(underLimit("4194304", Cuda.ERROR_OUT_OF_MEMORY))
                .isEqualTo("; this process's address-space limit (ulimit -v) is 4096 MiB, and the driver reserves address space at start beyond it:"
                        + " lift it (ulimit -v unlimited) to measure the GPU");
    }

    @Test
    void otherFailuresOrNoLimitAddNothing() throws Exception {
        assertThat(underLimit("4194304", Cuda.ERROR_NO_DEVICE)).isEmpty();
        assertThat(underLimit("unlimited", Cuda.ERROR_OUT_OF_MEMORY)).isEmpty();
    }
}
