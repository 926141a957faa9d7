package hostside.learn.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import hostside.learn.Inputs;
import hostside.learn.Steppers;

/**
 * Clients that stall (a request cut off before its blank line, a connection that says nothing, a
 * reader that stops reading) while a reader asks for a page. Every wait here is bounded and
 * generous; what is asserted is that the page came and the stalled connection was closed, never
 * how fast.
 */
class LearnServerStallTest {
    /** Far beyond every deadline the server keeps; only a server that never answers reaches it. */
    static final int GENEROUS_MS = 60_000;

    private LearnServer server;
    private final List<Socket> stalled = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = LearnServer.start(new Site(Steppers.all(), Inputs.typical(Map.of()), List.of(), "typical figures"), 0);
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket s : stalled) s.close();
        server.close();
    }

    @Test
    void aRequestCutOffBeforeItsBlankLineNeitherStallsAReaderNorStaysOpen() throws Exception {
        Socket cut = stalledClient("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        assertThat(page("/module/1")).startsWith("HTTP/1.1 200");
        assertThat(closedByServer(cut)).as("the cut-off request's connection closed by the server").isTrue();
    }

    @Test
    void moreCutOffRequestsThanPagesDrawnAtOnceStillLeaveAReaderItsPage() throws Exception {
        for (int i = 0; i < 2 * ExchangePool.DRAWING + 1; i++) stalledClient("GET /module/" + (i % 6 + 1) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        stalledClient("GET / HT"); // cut in the request line itself
        assertThat(page("/")).startsWith("HTTP/1.1 200");
        for (Socket s : stalled) assertThat(closedByServer(s)).as("every cut-off request's connection closed by the server").isTrue();
    }

    @Test
    void connectionsThatSendNothingHoldNoThreadAndAreClosed() throws Exception {
        for (int i = 0; i < 2 * ExchangePool.DRAWING + 1; i++) stalledClient("");
        assertThat(page("/check")).startsWith("HTTP/1.1 200");
        for (Socket s : stalled) assertThat(closedByServer(s)).as("a silent connection closed by the server").isTrue();
    }

    @Test
    void aClientThatStopsReadingItsAnswersStallsNoOneAndIsCutOff() throws Exception {
        // 1300 pipelined requests (60 KB, which the server's socket takes without this client's
        // write blocking) for answers of 11 KB each: 14 MB, more than both sockets' buffers hold
        // (4 MB at most by Linux's defaults), so the server's write blocks on a client that reads nothing.
        Socket deaf = new Socket();
        stalled.add(deaf);
        deaf.setReceiveBufferSize(4096);
        deaf.connect(new InetSocketAddress("127.0.0.1", server.port()));
        byte[] one = ("GET /check HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 1300; i++) deaf.getOutputStream().write(one);
        deaf.getOutputStream().flush();
        Thread.sleep(1000); // not a measure: time for the server to fill the buffers, so the page below is asked for while its write blocks
        assertThat(page("/module/3")).startsWith("HTTP/1.1 200");
        assertThat(resetByServer(deaf)).as("the client that stopped reading cut off by the server").isTrue();
    }

    @Test
    void closeEndsTheServersThreadsWhileARequestIsCutOff() throws Exception {
        stalledClient("GET / HTTP/1.1\r\n");
        assertThat(page("/")).startsWith("HTTP/1.1 200");
        server.close();
        long until = System.nanoTime() + GENEROUS_MS * 1_000_000L;
        while (learnThreads() > 0 && System.nanoTime() < until) Thread.sleep(50);
        assertThat(learnThreads()).as("threads named " + ExchangePool.THREAD_NAME + "* still alive after close()").isZero();
    }

    private Socket stalledClient(String sent) throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        stalled.add(s);
        s.getOutputStream().write(sent.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    private String page(String path) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(GENEROUS_MS);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** True when the server ends the connection (end of stream or reset) before the generous wait runs out. */
    private static boolean closedByServer(Socket s) throws IOException {
        s.setSoTimeout(GENEROUS_MS);
        InputStream in = s.getInputStream();
        try {
            while (in.read(new byte[8192]) >= 0) {
                // an error page the server wrote on its way out: read on to the end
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset: the server closed with this client's bytes unread
        }
    }

    /**
     * True when the server drops a connection whose answers this client never reads. Reading would
     * let the server's write go on, so this writes instead: a blank line (which the server skips
     * between requests) now and then, until the server's reset makes the write fail.
     */
    private static boolean resetByServer(Socket s) throws Exception {
        long until = System.nanoTime() + GENEROUS_MS * 1_000_000L;
        while (System.nanoTime() < until) {
            try {
                s.getOutputStream().write("\r\n".getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
            } catch (IOException e) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    private static long learnThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(ExchangePool.THREAD_NAME)).count();
    }
}
