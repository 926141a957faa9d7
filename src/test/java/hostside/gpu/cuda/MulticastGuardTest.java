package hostside.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * hostside must never look up, let alone call, a cuMulticast* function: creating a multicast
 * object (NVLS) can take GPUs that other jobs share out of service, and the rack checklist
 * (item 19) only reports attribute 132. Three nets, because each alone has a hole:
 * <ol>
 *   <li>the sources: a symbol is looked up by its name, so the name has to be written in the
 *       main tree somewhere (the binding's table, a SymbolLookup.find, a cuGetProcAddress
 *       argument, a resource). Every file under src/main is searched. Its hole: a name built
 *       from pieces;</li>
 *   <li>the binding's table, as it is at run time: catches a name built from pieces there;</li>
 *   <li>the run: the fake exports every cuMulticast* function and counts calls, and the binding
 *       records every name it asks the library for; after the code that reads attributes and
 *       runs the fabric check has run through every outcome, neither may show one. Its hole:
 *       code paths not run here, which the first two nets cover.</li>
 * </ol>
 */
class MulticastGuardTest extends OnFakeDriver {
    /** cuda.h of CUDA 13.0 declares these six; the fake exports each. */
    static final List<String> MULTICAST = List.of("cuMulticastCreate", "cuMulticastAddDevice", "cuMulticastBindMem",
            "cuMulticastBindAddr", "cuMulticastUnbind", "cuMulticastGetGranularity");

    static final String FORBIDDEN = "cumulticast";

    @Test
    void noFileOfTheMainTreeNamesAMulticastFunction() throws IOException {
        Path main = Path.of("src/main");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(main)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        // the walk saw the binding itself, so an empty or moved tree cannot pass
        assertThat(files).contains(main.resolve("java/hostside/gpu/cuda/Cuda.java"),
                main.resolve("java/hostside/gpu/cuda/FabricReadiness.java"));
        List<String> hits = new ArrayList<>();
        for (Path f : files) {
            // ISO-8859-1 reads any bytes, so a binary resource is searched too
            List<String> lines = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
            for (int i = 0; i < lines.size(); i++)
                if (lines.get(i).toLowerCase(Locale.ROOT).contains(FORBIDDEN)) hits.add(f + ":" + (i + 1) + ": " + lines.get(i).strip());
        }
        assertThat(hits).as("hostside never looks up a multicast function (NVLS is report-only: rack.md item 19)").isEmpty();
    }

    @Test
    void theBindingDeclaresNoMulticastFunction() {
        assertThat(Cuda.declaredNames()).contains("cuMemCreate", "cuMemExportToShareableHandle");
        assertThat(Cuda.declaredNames()).noneMatch(n -> n.toLowerCase(Locale.ROOT).startsWith(FORBIDDEN));
    }

    @Test
    void readingFactsAndRunningTheFabricCheckNeverLooksOneUp() {
        CudaFacts.read(cuda);
        FabricReadiness.check(cuda, 0, null); // no channel: refused at cuMemCreate
        fake.setImexChannel(true);
        FabricReadiness.check(cuda, 0, FabricReadinessOnFakeTest.COMPLETE);
        fake.setAttribute(Cuda.ATTRIBUTE_MULTICAST_SUPPORTED, 1); // a GPU that has NVLS: still only read
        FabricReadiness ready = FabricReadiness.check(cuda, 1, null);
        assertThat(ready.multicastSupported()).isEqualTo(1);
        assertThat(ready.outcome()).isEqualTo(FabricReadiness.Outcome.READY);

        // the record works: it holds what the check did look up
        assertThat(cuda.lookedUp()).contains("cuMemCreate", "cuMemImportFromShareableHandle", "cuMemRelease");
        assertThat(cuda.lookedUp()).noneMatch(n -> n.toLowerCase(Locale.ROOT).startsWith(FORBIDDEN));
        for (String f : MULTICAST) assertThat(fake.calls(f)).as(f).isZero();
        fake.assertNothingLive();
    }

    @Test
    void theFakeCountsMulticastCallsSoTheRunNetCanCatchOne() throws Throwable {
        // calls the fake's export directly, as a regression would through the binding
        MethodHandle create = fake.function("cuMulticastCreate", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        int r = (int) create.invokeExact(MemorySegment.NULL, MemorySegment.NULL);
        assertThat(r).isEqualTo(Cuda.ERROR_NOT_PERMITTED);
        assertThat(fake.calls("cuMulticastCreate")).isEqualTo(1);
    }
}
