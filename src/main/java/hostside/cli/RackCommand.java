package hostside.cli;

import java.util.List;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.Json;
import hostside.core.Style;
import hostside.doc.TextRenderer;
import hostside.machine.MachineRun;
import hostside.rack.Rack;
import hostside.rack.RackDocument;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "rack", mixinStandardHelpOptions = true,
        header = "How each GPU sees host memory, and its copy engines against SMs.",
        description = {"Module 5 (first part): how each GPU sees host memory (its coherence class and the attributes behind it), and the copy engines against SMs reading and writing CPU memory."})
public final class RackCommand implements Callable<Integer> {
    @Mixin
    MachineOptions options;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        hostside.fs.FsRoot fs = options.open();
        MachineRun run;
        try (hostside.cli.Progress progress = hostside.cli.Progress.forStderr(spec.commandLine().getErr())) {
            run = hostside.machine.MachineDrill.run(fs, Rack.tests(), List.of(), progress);
        }
        var out = spec.commandLine().getOut();
        if (options.json) {
            ObjectNode n = Json.MAPPER.createObjectNode();
            n.put("schema", hostside.machine.MachineFacts.SCHEMA);
            n.put("kind", "rack");
            n.set("gpu", Json.MAPPER.valueToTree(run.gpu()));
            n.set("figures", Json.MAPPER.valueToTree(run.figures())); // the copy engines' and SMs' figures, typed as machine's
            out.print(Json.write(n));
        } else {
            out.print(new TextRenderer(Style.forTerminal()).render(RackDocument.of(run.gpu())));
        }
        out.flush();
        return 0;
    }
}
