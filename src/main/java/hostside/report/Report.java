package hostside.report;

import java.util.List;

/**
 * The one-page profile of a machine (CONTRACT.md, Reports). Written as results/&lt;host&gt;.json;
 * the Markdown is rendered from that JSON alone.
 */
public record Report(String schema, String kind, Title title, List<Answer> questions, List<Headline> headlines,
                     List<Section> modules) {

    /** The title block. */
    public record Title(String host, String kernel, String cpu, List<String> gpus, String driver, String date,
                        String hostsideVersion, String source, String virtualization) {}

    /**
     * One of Module 6's four axes, answered in a line with its evidence.
     *
     * @param status answered (from facts), measured, or not measured (then {@code answer} says why)
     */
    public record Answer(String axis, String question, String status, String answer, String evidence) {}

    /** A figure worth a glance, with its unit and where it came from. */
    public record Headline(String name, String value, String source) {}

    /**
     * One module's section. {@code status} is "run", "not run" (with why) or "not in this version".
     * {@code data} holds the drill's own JSON (Module 1: the facts JSON of CONTRACT.md).
     */
    public record Section(int module, String title, String command, String status, String why, Object data) {}
}
