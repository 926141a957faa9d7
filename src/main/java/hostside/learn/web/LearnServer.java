package hostside.learn.web;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The JDK's own HTTP server, bound to the loopback address only, serving {@link Site}'s pages.
 * GET and HEAD only; a path that is not a page is not found (no file is ever read by path, so
 * "../" leads nowhere); a request naming another host (a DNS-rebinding page that points its own
 * name at 127.0.0.1) is refused. Nothing it serves is cached or fetches anything. Each exchange
 * runs on a virtual thread of {@link ExchangePool}'s under deadlines, so a client that stalls (a
 * request cut off, answers left unread) holds a socket and some heap for seconds, never a thread a
 * reader waits for; past the pool's bound the stalled requests are the ones cut off.
 */
public final class LearnServer implements AutoCloseable {
    /**
     * Connections the kernel queues for the dispatcher to accept. It accepts one per turn of its
     * loop and none while it waits for room for an exchange, so stallers that reconnect fill the
     * queue; once it is full, Linux drops a new connection's SYN (the client tries again after a
     * second, then longer) or the last ACK of its handshake (the client believes it is connected,
     * and waits). With a queue as long as a 12 MiB heap's bound of exchanges (22), 200 stallers made
     * a reader wait 5.4 s for a page and 1000 left one unanswered for 60 s; with 1024 every page came
     * within 1.5 s. Queued connections take the kernel's memory, not the heap, so the queue does not
     * shrink with the heap. Linux caps it at net.core.somaxconn (4096 since kernel 5.4, 128 before).
     */
    static final int QUEUED = 1024;

    private final HttpServer server;
    private final ExchangePool pool;
    private final Site site;

    private LearnServer(HttpServer server, ExchangePool pool, Site site) {
        this.server = server;
        this.pool = pool;
        this.site = site;
    }

    /** Started on 127.0.0.1:{@code port} (0: any free port), with as many exchanges at once as this JVM's heap allows ({@link ExchangePool#holdingFor}). */
    public static LearnServer start(Site site, int port) throws IOException {
        return start(site, port, ExchangePool.holdingFor(Runtime.getRuntime().maxMemory()));
    }

    /** At most {@code holding} exchanges at once: a test's small bound. */
    static LearnServer start(Site site, int port, int holding) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), QUEUED);
        ExchangePool pool = new ExchangePool(holding);
        LearnServer ls = new LearnServer(s, pool, site);
        s.createContext("/", ls::handle).getFilters().add(pool.responseDeadline());
        s.setExecutor(pool);
        s.start();
        return ls;
    }

    /** Exchanges whose thread has not ended yet. */
    int exchangesAlive() {
        return pool.alive();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** "http://127.0.0.1:PORT/". */
    public String address() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + port() + "/";
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String method = x.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                send(x, 405, "text/plain", "only GET and HEAD here\n", method.equals("HEAD"));
                return;
            }
            if (!localHost(x.getRequestHeaders().getFirst("Host"))) {
                send(x, 403, "text/plain", "this server answers to 127.0.0.1 and localhost only\n", false);
                return;
            }
            URI uri = x.getRequestURI();
            // the raw path: a page's path has no dots, percent signs or doubled slashes to decode
            Optional<String> page;
            try {
                page = pool.drawn(() -> site.page(uri.getRawPath()));
            } catch (RuntimeException e) {
                // a stepper that cannot draw these figures: one line to the reader, no trace on the console
                send(x, 500, "text/plain", "this page could not be drawn: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + "\n",
                        method.equals("HEAD"));
                return;
            }
            if (page.isEmpty()) {
                send(x, 404, "text/plain", "no such page; the pages are /, /module/1 to /module/6 and /check\n", method.equals("HEAD"));
                return;
            }
            send(x, 200, "text/html; charset=utf-8", page.get(), method.equals("HEAD"));
        }
    }

    private boolean localHost(String host) {
        if (host == null) return false;
        String name = host.replaceFirst(":\\d+$", "");
        String portPart = host.contains(":") && !host.endsWith("]") ? host.substring(host.lastIndexOf(':') + 1) : null;
        boolean local = name.equals("127.0.0.1") || name.equals("localhost") || name.equals("[::1]");
        return local && (portPart == null || portPart.equals(String.valueOf(port())));
    }

    private static void send(HttpExchange x, int code, String type, String body, boolean head) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        var h = x.getResponseHeaders();
        h.set("Content-Type", type);
        h.set("Cache-Control", "no-store");
        h.set("X-Content-Type-Options", "nosniff");
        // the pages' own inline style and script, nothing else: no page can load or send anything
        h.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'");
        if (head) {
            x.sendResponseHeaders(code, -1);
            return;
        }
        x.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        pool.close(); // cuts off every exchange and refuses new ones, so the dispatcher waits on none
        server.stop(0); // closes every connection and ends the dispatcher
    }
}
