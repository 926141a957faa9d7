package hostside.cpu.dataloader;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * A script's stdout as JSON-line events, read on a thread of its own so the reader never blocks
 * the sampling. Lines that are not JSON objects are kept aside as text; the end of the stream is
 * an event too ({@code {"event":"eof"}}).
 */
final class EventStream {
    static final String EOF = "eof";
    /** A script's answer that it cannot do what was asked here (numpy missing for an array dataset). */
    static final String UNAVAILABLE = "unavailable";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final BlockingQueue<JsonNode> queue = new LinkedBlockingQueue<>();
    private final List<String> text = Collections.synchronizedList(new ArrayList<>());

    EventStream(InputStream in) {
        Thread.ofPlatform().daemon().name("hostside-dataloader-events").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    JsonNode n = parse(line);
                    if (n != null) queue.add(n);
                    else if (!line.isBlank() && text.size() < 100) text.add(line);
                }
            } catch (IOException e) {
                // the pipe broke: the process is gone, which the eof event says
            } finally {
                queue.add(JsonNodeFactory.instance.objectNode().put("event", EOF));
            }
        });
    }

    static JsonNode parse(String line) {
        try {
            JsonNode n = MAPPER.readTree(line);
            return n != null && n.isObject() && n.path("event").isTextual() ? n : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Events taken out of order by {@link #next(String, long)}, for later. */
    private final java.util.ArrayDeque<JsonNode> backlog = new java.util.ArrayDeque<>();

    /** The next event (those set aside first), or null if none comes within {@code nanos}. */
    JsonNode poll(long nanos) throws InterruptedException {
        if (!backlog.isEmpty()) return backlog.removeFirst();
        return queue.poll(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    /**
     * Forgets the events set aside: a script that serves one run after another starts each with
     * nothing left of the one before.
     */
    void forget() {
        backlog.clear();
    }

    /**
     * The next event named {@code name}, wherever it is: the processes write concurrently, so a
     * worker's "ready" may come before main's "forked". Other events are set aside in order for
     * {@link #poll}, except the end of the stream, an "error", an "unavailable" or a "done", which
     * are returned at once. Null if none comes within {@code nanos}.
     */
    JsonNode next(String name, long nanos) throws InterruptedException {
        for (var it = backlog.iterator(); it.hasNext(); ) {
            JsonNode e = it.next();
            if (e.path("event").asText().equals(name) || terminal(e)) {
                it.remove();
                return e;
            }
        }
        long end = System.nanoTime() + nanos;
        while (true) {
            JsonNode e = queue.poll(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) return null;
            if (e.path("event").asText().equals(name) || terminal(e)) return e;
            backlog.addLast(e);
        }
    }

    static boolean terminal(JsonNode e) {
        String n = e.path("event").asText();
        return n.equals(EOF) || n.equals("error") || n.equals(UNAVAILABLE) || n.equals("done");
    }

    /** Lines that were not events (a stray print, a warning on stdout). */
    List<String> text() {
        synchronized (text) {
            return List.copyOf(text);
        }
    }
}
