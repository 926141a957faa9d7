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
 * name at 127.0.0.1) is refused. Nothing it serves is cached or fetches anything. Exchanges run on
 * {@link ExchangePool}'s few threads under deadlines, so a client that stalls (a request cut off,
 * answers left unread) holds a thread for seconds and no other reader waits on it.
 */
public final class LearnServer implements AutoCloseable {
    private final HttpServer server;
    private final ExchangePool pool;
    private final Site site;

    private LearnServer(HttpServer server, ExchangePool pool, Site site) {
        this.server = server;
        this.pool = pool;
        this.site = site;
    }

    /** Started on 127.0.0.1:{@code port} (0: any free port). */
    public static LearnServer start(Site site, int port) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        ExchangePool pool = new ExchangePool();
        LearnServer ls = new LearnServer(s, pool, site);
        s.createContext("/", ls::handle).getFilters().add(pool.responseDeadline());
        s.setExecutor(pool);
        s.start();
        return ls;
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
                page = site.page(uri.getRawPath());
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
        server.stop(0); // closes every connection, which ends what the pool's threads were reading or writing
        pool.close();
    }
}
