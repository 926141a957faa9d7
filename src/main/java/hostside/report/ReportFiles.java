package hostside.report;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import hostside.core.BadInputException;
import hostside.core.Json;
import hostside.fs.InputFile;

/**
 * Report files that another machine wrote: a regular file of a report's size, one JSON document,
 * read whole ({@code report --from}, {@code learn --from}) or, for {@code compare}, only its head.
 */
public final class ReportFiles {
    private ReportFiles() {}

    /** The largest report read: 100 times a large box's. */
    public static final long MAX_REPORT = 64L << 20;

    /** The top-level fields of a report that {@link #head} passes over unread: its pages. */
    /** A report's recorded findings, bound under their own name so that a fault in them is named by its path ("findings[0]"). */
    private record Recorded(List<Report.Concluded> findings) {}

    static final Set<String> PAGES = Set.of("title", "questions", "headlines", "modules");

    /** A report's JSON, whole: one document and nothing after it (a file two writers interleaved is refused). */
    public static JsonNode json(Path p) {
        String what = p.toString();
        try (InputFile file = open(p); JsonParser in = Json.MAPPER.createParser(file)) {
            start(in, what);
            JsonNode n = Json.MAPPER.readTree(in);
            end(in, what);
            if (n == null || !"report".equals(n.path("kind").asText())) throw new BadInputException(what + ": not a hostside report");
            return n; // the schema and the records are checked by ReportReader, with a one-line reason
        } catch (JsonProcessingException e) {
            throw new BadInputException(what + ": not a report: " + JsonFaults.syntax(e));
        } catch (IOException e) {
            throw new BadInputException(what + ": cannot read a report (" + firstLine(e.getMessage()) + ")");
        }
    }

    /** The parser at the document's first token: bad input when the file holds none. */
    private static void start(JsonParser in, String what) throws IOException {
        if (in.nextToken() == null) throw new BadInputException(what + ": not a report: an empty file");
    }

    /** After the document: bad input when anything but white space follows it (a damaged or concatenated file). */
    private static void end(JsonParser in, String what) throws IOException {
        boolean more;
        try {
            more = in.nextToken() != null;
        } catch (JsonProcessingException e) { // what follows is not even JSON: data after the end all the same
            more = true;
        }
        if (more) throw new BadInputException(what + ": not a report: data after the end of its JSON document (a damaged or concatenated file)");
    }

    /**
     * What compare reads of the report in {@code p}: its machine, class, software, confounders and
     * figures, checked as {@link ReportReader#read} checks them. The file is read as a stream and
     * its pages ({@link #PAGES}) are passed over unread, so that a report costs what its head
     * holds, not its size. A first-schema report has no figures of its own: it is read whole and
     * its figures derived from its modules.
     */
    public static Report.Head head(Path p) {
        String what = p.toString();
        ObjectNode top = Json.MAPPER.createObjectNode();
        try (InputFile file = open(p); JsonParser in = Json.MAPPER.createParser(file)) {
            start(in, what);
            if (in.currentToken() != JsonToken.START_OBJECT) throw new BadInputException(what + ": not a hostside report");
            for (JsonToken t = in.nextToken(); t == JsonToken.FIELD_NAME; t = in.nextToken()) {
                String field = in.currentName();
                in.nextToken();
                if (PAGES.contains(field)) in.skipChildren();
                else top.set(field, Json.MAPPER.readTree(in));
            }
            end(in, what);
        } catch (JsonProcessingException e) {
            throw new BadInputException(what + ": not a report: " + JsonFaults.syntax(e));
        } catch (IOException e) {
            throw new BadInputException(what + ": cannot read a report (" + firstLine(e.getMessage()) + ")");
        }
        if (!"report".equals(top.path("kind").asText())) throw new BadInputException(what + ": not a hostside report");
        String schema = ReportReader.schema(top, what);
        if (!top.hasNonNull("figures")) return ReportReader.read(json(p), what).head();
        Report.Head bound = ReportReader.bind(top, Report.class, schema, what).head();
        // its pages were not read, so its findings are the ones it recorded; a report written before it recorded them has none to compare
        Report.Head head = new Report.Head(bound.machine(), bound.hardwareClass(), bound.software(), bound.confounders(), bound.figures(),
                top.hasNonNull("findings") ? ReportReader.bind(Json.MAPPER.createObjectNode().set("findings", top.get("findings")), Recorded.class, schema, what)
                        .findings() : null);
        ReportChecks.check(head, top, what);
        return head;
    }

    /**
     * The file, opened once and judged by what was opened ({@link InputFile}): a regular file no
     * larger than a report. A FIFO swapped in after a look would block the open for ever, and no
     * report is anywhere near {@link #MAX_REPORT}.
     */
    private static InputFile open(Path p) {
        try {
            return InputFile.open(p, MAX_REPORT);
        } catch (NoSuchFileException e) {
            throw new BadInputException(p + ": not a report (no such file)");
        } catch (InputFile.NotRegular e) {
            throw new BadInputException(p + ": not a report (not a regular file: " + e.getMessage() + ")");
        } catch (InputFile.TooLarge e) {
            throw new BadInputException(p + ": not a report (" + e.getMessage() + "; a report is well under " + (MAX_REPORT >> 20) + " MiB)");
        } catch (IOException e) {
            throw new BadInputException(p + ": cannot read a report (" + firstLine(e.getMessage()) + ")");
        }
    }

    /** The first line of a system's message (an open or a read that failed), as a terminal may show it. */
    private static String firstLine(String m) {
        return JsonFaults.firstLine(m);
    }
}
