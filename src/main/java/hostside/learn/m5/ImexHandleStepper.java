package hostside.learn.m5;

import java.util.List;
import java.util.Locale;

import hostside.core.Units;
import hostside.gpu.cuda.FabricReadiness.Fabric.State;
import hostside.learn.Frame;
import hostside.learn.Frames;
import hostside.learn.Inputs;
import hostside.learn.Stepper;
import hostside.learn.Svg;
import hostside.report.platforms.HostLink;

/**
 * A fabric handle's path through IMEX in an NVL72 domain: a process on compute tray A allocates
 * GPU memory with cuMemCreate (CU_MEM_HANDLE_TYPE_FABRIC) and exports a fabric handle; the job
 * hands it to a process on tray B, whose import goes through the domain's IMEX daemons; the peer
 * maps it and reads tray A's memory over NVLink, through the NVSwitch trays. Then what fails when
 * tray B's IMEX daemon is down or its fabric is not complete, each answered by running
 * {@link ImexDomain}. The machine's own fabric says whether it is in such a domain; if not, the
 * frames show a GB200 NVL72 as the reference (platforms.json).
 */
public final class ImexHandleStepper implements Stepper {
    public static final String KEY = "imex-handle";

    /** Where this machine stands: in a multi-node NVLink domain, in one node's NVSwitch domain, or in none. */
    enum Domain { MULTI_NODE, ONE_NODE, NONE }

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public int module() {
        return 5;
    }

    @Override
    public String title() {
        return "A fabric handle's path through IMEX in an NVL72 domain";
    }

    /**
     * A tray of a GB200/GB300 rack reads as NVSwitch-linked GPUs (fabric nvswitch-N) over a C2C host
     * link; an HGX board is NVSwitch-linked over PCIe, one node's domain; anything else has none.
     */
    static Domain domain(Inputs in) {
        String fabric = in.fact("fabric", "none").value().trim().toLowerCase(Locale.ROOT);
        String gpu = in.fact("gpu", "").value();
        boolean switched = fabric.startsWith("nvswitch");
        boolean rackGpu = gpu.contains("GB200") || gpu.contains("GB300");
        if (switched && (Reference.link(in) == HostLink.Kind.C2C || rackGpu)) return Domain.MULTI_NODE;
        if (switched || fabric.startsWith("nvlink")) return Domain.ONE_NODE;
        return Domain.NONE;
    }

    enum Stage { DOMAIN, FABRIC, CREATE, EXPORT, IMPORT, MAP, DAEMON_DOWN, FABRIC_INCOMPLETE, CHECK }

    @Override
    public List<Frame> frames(Inputs in) {
        Inputs.Fact fabric = in.fact("fabric", "none");
        Domain domain = domain(in);
        int gpus = Reference.nvl72Domain();
        Inputs.Value nvlink = Reference.nvl72GpuToGpu();
        String fabricWords = "fabric '" + fabric.value() + "' (" + fabric.source().words + ")";
        String where = switch (domain) {
            case MULTI_NODE -> "This machine's " + fabricWords + " and host link " + Reference.linkWords(in) + " make it a tray of such a domain: the frames are its story, with the reference rack's figures.";
            case ONE_NODE -> "This machine's " + fabricWords + " is NVLink behind NVSwitches inside one box: its GPUs share memory within the node without IMEX, and the frames show a GB200 NVL72 as the reference.";
            case NONE -> fabric.mine() ? "This machine's " + fabricWords + " says it has no NVLink domain: the frames show a GB200 NVL72 as the reference."
                    : "Without a report this machine's fabric is not known, and is taken as 'none' (typical): the frames show a GB200 NVL72 as the reference.";
        };
        String footer = switch (domain) {
            case MULTI_NODE -> "this machine: a tray of a multi-node NVLink domain (" + fabric.value() + ")";
            case ONE_NODE -> "this machine: one node's NVLink domain (" + fabric.value() + "); reference GB200 NVL72";
            case NONE -> "this machine: " + fabricWords + "; shown: the GB200 NVL72 reference";
        };
        ImexDomain ok = ImexDomain.healthy();
        Frames f = new Frames();

        f.add("An NVL72 domain: " + gpus + " GPUs on 18 compute trays, joined by 9 NVSwitch trays",
                "In a GB200 NVL72 rack every GPU reaches every other over NVLink through the switch trays, though each compute tray (2 Grace CPUs, 4 GPUs) is its own Linux host. "
                        + "Reference figures (platforms.json, design/platforms.md): " + gpus + " GPUs in the domain, NVLink " + nvlink.shown() + " per GPU each way. "
                        + "Sharing memory across trays takes a fabric handle, which the IMEX daemons turn into a mapping. " + where,
                new Frame.Predict("Is this machine part of a multi-node NVLink domain, where fabric handles cross from one host to another?",
                        List.of("Yes: its GPUs reach other hosts' GPUs over NVLink (an NVL72-class rack)", "One node only: NVSwitches inside this box, IMEX does not apply",
                                "No: this machine has no NVLink domain"),
                        domain.ordinal(),
                        fabric.mine() ? "Its hardware class says " + fabricWords + " and host link " + Reference.linkWords(in) + "."
                                : "Without a report the fabric is taken as 'none' (typical, not this machine): no NVLink domain."),
                draw(Stage.DOMAIN, ok, footer), nvlink);

        f.add("Every GPU joins the fabric: state COMPLETED, one cluster UUID, one clique",
                "Before any handle crosses, every GPU must be registered with the NVLink fabric: NVML's fabric info says state COMPLETED, a cluster UUID that is not zero, and a clique id shared by the GPUs that can reach each other. "
                        + "On GB200 racks the switch trays' fabric management sets this up (the fabric manager does not run on compute trays, NVIDIA/gpu-operator#610); on an HGX board it is nvidia-fabricmanager on the host. "
                        + "hostside rack reads it as its fabric state item.",
                null, draw(Stage.FABRIC, ok, footer));

        ImexDomain.Call create = ok.create();
        f.add("Tray A: cuMemCreate with CU_MEM_HANDLE_TYPE_FABRIC",
                "A process on tray A allocates GPU memory with the driver's virtual memory API, asking for a fabric handle type, and gets " + create.result() + ". "
                        + "It needs an IMEX channel, /dev/nvidia-caps-imex-channels/channel0, which is not created by default and does not survive a reboot (NVIDIA's IMEX guide). "
                        + "Without one the call returns CUDA_ERROR_NOT_PERMITTED, as it did on the H200 VM even though its GPU says it supports fabric handles (design/rack-apis.md).",
                null, draw(Stage.CREATE, ok, footer));

        ImexDomain.Call export = ok.export();
        f.add("Tray A: cuMemExportToShareableHandle gives a 64-byte fabric handle",
                "The exporter asks for the allocation's fabric handle and gets " + export.result() + ". The handle is only data: the job hands it to the process on tray B by its own means "
                        + "(torch.distributed's store, MPI, a socket). No memory moves yet, and nothing crosses NVLink.",
                null, draw(Stage.EXPORT, ok, footer));

        ImexDomain.Call imported = ok.importOnB();
        f.add("Tray B: cuMemImportFromShareableHandle goes through the IMEX daemons",
                "Tray B's process imports the handle and gets " + imported.result() + ". Its driver asks tray B's IMEX daemon, which asks tray A's over the trays' IP network "
                        + "(every node is listed in /etc/nvidia-imex/nodes_config.cfg, the same file on each): the daemons check that B may import it and set up the mapping of A's memory for B's GPU.",
                null, draw(Stage.IMPORT, ok, footer));

        ImexDomain.Call map = ok.map();
        f.add("Tray B: cuMemMap and cuMemSetAccess, then loads over NVLink",
                "The peer reserves an address range, maps the imported handle into it and grants its GPU access, which gives " + map.result() + ". "
                        + "From then on its kernels load and store tray A's memory through the NVSwitch trays at NVLink speed, " + nvlink.shown() + " per GPU each way; the daemons stay out of the data path.",
                null, draw(Stage.MAP, ok, footer), nvlink);

        ImexDomain downB = ok.withB(ok.b.withDaemon(false));
        ImexDomain.Call failed = downB.importOnB();
        ImexDomain.Nccl downNccl = downB.ncclCheck();
        f.add("If tray B's IMEX daemon is not running",
                "cuMemImportFromShareableHandle on tray B returns " + failed.result() + ". NCCL's own check exports and imports a handle in every rank's process: "
                        + downNccl.why() + " (NVIDIA/nccl src/mnnvl.cc). Between jobs no daemon is normal where a job's prolog or a Kubernetes ComputeDomain starts it (NVIDIA/NVSentinel#1471); during a job that shares memory it is a failure.",
                new Frame.Predict("The IMEX daemon on tray B is not running. What does cuMemImportFromShareableHandle on tray B do?",
                        List.of("Succeeds: the data goes over NVLink, which needs no daemon", "Returns an error, and nothing is mapped", "Blocks until the daemon starts"),
                        failed.ok() ? 0 : 1,
                        "The import is the daemons' work, so it returns " + failed.result() + "."),
                draw(Stage.DAEMON_DOWN, downB, footer));

        ImexDomain partial = ok.withB(ok.b.withFabric(State.IN_PROGRESS));
        ImexDomain.Nccl partialNccl = partial.ncclCheck();
        f.add("If tray B's fabric state is still IN_PROGRESS",
                "NCCL looks at every rank's fabric state before it tries a handle: " + partialNccl.why() + ". The job runs, over the network instead of NVLink, and is slower without saying why. "
                        + "A state stuck in progress for minutes means the fabric manager, or the switch trays' fabric management, is not done: one went 20 days unnoticed (NVIDIA/NVSentinel#889).",
                new Frame.Predict("Tray B's GPU reports fabric state IN_PROGRESS. What does NCCL do at init?",
                        List.of("Uses multi-node NVLink anyway", "Turns multi-node NVLink off without an error and uses the network", "Stops the job with an IMEX error"),
                        partialNccl.mnnvl().ordinal(),
                        Character.toUpperCase(partialNccl.why().charAt(0)) + partialNccl.why().substring(1) + "."),
                draw(Stage.FABRIC_INCOMPLETE, partial, footer));

        String check = switch (domain) {
            case MULTI_NODE -> "On this machine they apply: run hostside rack on every tray before a job that shares memory across trays.";
            case ONE_NODE -> "On this machine the fabric state and fabric manager items apply (an NVSwitch board); IMEX and fabric readiness do not, as its domain is one node.";
            case NONE -> "On this machine they do not apply (no NVLink domain): hostside rack marks them not applicable.";
        };
        f.add("Checking it before a job: hostside rack",
                "hostside rack checks each link of this chain: the fabric state of every GPU, the fabric manager where the host runs it, the IMEX channel, config and daemon, "
                        + "and fabric readiness, which allocates " + Units.bytes(2L << 20) + " with a fabric handle, exports and imports it as NCCL does (in one process, so a cross-node import can still fail). " + check,
                null, draw(Stage.CHECK, ok, footer));
        return f.list();
    }

    // ---- the drawing: tray A, the switch trays, tray B; the handle above, the daemons' network below

    static String draw(Stage stage, ImexDomain d, String footer) {
        Svg svg = new Svg(Reference.W, Reference.H);
        svg.text(8, 16, switch (stage) {
            case DOMAIN -> "GB200 NVL72 (reference): two of its 18 compute trays and the switch trays between them";
            case FABRIC -> "every GPU registered with the fabric: state, cluster UUID, clique";
            case CREATE -> "1. tray A allocates with a fabric handle type (needs an IMEX channel)";
            case EXPORT -> "2. tray A exports a fabric handle; the job passes it to tray B";
            case IMPORT -> "3. tray B imports it: its IMEX daemon asks tray A's";
            case MAP -> "4. tray B maps it: loads and stores over NVLink, daemons out of the way";
            case DAEMON_DOWN -> "what if: tray B's IMEX daemon is not running";
            case FABRIC_INCOMPLETE -> "what if: tray B's fabric state is " + d.b.fabric();
            case CHECK -> "hostside rack: fabric state, fabric manager, IMEX, fabric readiness";
        }, "start", "");
        boolean all = stage == Stage.DOMAIN || stage == Stage.CHECK;
        // tray outlines
        svg.box(8, 26, 200, 176, "", all ? "on" : "");
        svg.text(108, 42, "compute tray A (a host)", "middle", "");
        svg.box(432, 26, 200, 176, "", all ? "on" : "");
        svg.text(532, 42, "compute tray B (a host)", "middle", "");

        String procA = stage == Stage.CREATE ? "on" : stage == Stage.EXPORT ? "on" : stage.ordinal() > Stage.EXPORT.ordinal() && stage != Stage.CHECK ? "ok" : "";
        svg.box(18, 50, 180, 32, switch (stage) {
            case CREATE -> "process A: cuMemCreate";
            case EXPORT -> "process A: export";
            default -> "process A";
        }, procA);
        String gpuA = stage == Stage.CREATE ? "hot" : stage == Stage.MAP ? "ok" : "";
        svg.box(18, 92, 180, 32, "GPU A: 2 MiB of HBM", gpuA);
        String daemonA = stage == Stage.IMPORT || stage == Stage.EXPORT ? "on" : "";
        svg.box(18, 134, 180, 32, "IMEX daemon A" + (d.a.channel() ? ", channel0" : ""), daemonA);

        String procB = switch (stage) {
            case IMPORT, MAP -> "on";
            case DAEMON_DOWN -> "bad";
            default -> "";
        };
        svg.box(442, 50, 180, 32, switch (stage) {
            case IMPORT -> "process B: import";
            case MAP -> "process B: map, load";
            case DAEMON_DOWN -> "process B: import fails";
            default -> "process B";
        }, procB);
        String gpuB = stage == Stage.MAP ? "ok" : stage == Stage.FABRIC_INCOMPLETE ? "bad" : "";
        svg.box(442, 92, 180, 32, "GPU B" + (stage == Stage.FABRIC || stage == Stage.FABRIC_INCOMPLETE ? ": " + d.b.fabric() : ""), gpuB);
        String daemonB = stage == Stage.DAEMON_DOWN ? "bad" : stage == Stage.IMPORT ? "on" : "";
        svg.box(442, 134, 180, 32, "IMEX daemon B" + (d.b.daemon() ? "" : ": not running"), daemonB);

        // NVLink through the switch trays
        String nv = stage == Stage.MAP ? "ok" : stage == Stage.FABRIC || stage == Stage.DOMAIN ? "on" : stage == Stage.FABRIC_INCOMPLETE ? "bad" : "dim";
        svg.box(250, 92, 140, 40, "9 NVSwitch trays\n" + (stage == Stage.FABRIC || stage == Stage.FABRIC_INCOMPLETE ? "fabric management" : "NVLink"), nv.equals("dim") ? "" : nv);
        if (stage == Stage.MAP) {
            // the peer's loads: GPU B through the switch trays to GPU A's memory
            svg.arrow(442, 108, 390, 108, "", nv);
            svg.arrow(250, 108, 198, 108, "", nv);
        } else {
            svg.line(198, 108, 250, 108, nv);
            svg.line(390, 108, 442, 108, nv);
        }

        // the handle, passed by the job
        if (stage == Stage.EXPORT || stage == Stage.IMPORT || stage == Stage.DAEMON_DOWN) {
            svg.arrow(198, 62, 442, 62, "64-byte fabric handle, by the job", stage == Stage.EXPORT ? "on" : "ok");
        }

        // the daemons' network
        String net = stage == Stage.IMPORT ? "on" : stage == Stage.DAEMON_DOWN ? "bad" : "dim";
        svg.line(108, 166, 108, 214, net);
        svg.line(108, 214, 532, 214, net);
        svg.line(532, 166, 532, 214, net);
        svg.text(320, 230, "IMEX daemons over the IP network (nodes_config.cfg)", "middle", net.equals("dim") ? "dim" : net);
        svg.text(8, 252, footer, "start", "dim");
        return svg.render(stage.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ": a fabric handle between two trays");
    }
}
