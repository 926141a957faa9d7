package hostside.gpu.nvml;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * Prints what NVML says about this machine, for a first look on a GPU machine before the
 * facts reach a command:
 *
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp target/hostside.jar NvmlProbe          # JSON
 *   java --enable-native-access=ALL-UNNAMED -cp target/hostside.jar NvmlProbe --lines  # one line per GPU
 * </pre>
 *
 * (-Dhostside.nvml.library=PATH loads another library.) Exit code 0 also when NVML could not
 * be asked: that is a fact about the machine, printed as {@code notRun}.
 */
public final class NvmlProbe {
    private NvmlProbe() {}

    public static void main(String[] args) throws Exception {
        NvmlFacts facts = NvmlReader.read();
        if (java.util.List.of(args).contains("--lines")) {
            System.out.println(facts.headline());
            facts.gpuLines().forEach(System.out::println);
            for (NvmlGpu g : facts.gpus()) g.unknowns().forEach(u -> System.out.println("  GPU" + g.index() + " " + u));
            facts.unknowns().forEach(u -> System.out.println("  " + u));
        } else {
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            System.out.println(mapper.writeValueAsString(facts));
        }
    }
}
