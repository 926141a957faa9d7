package hostside.learn.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import hostside.learn.Frame;
import hostside.learn.Inputs;
import hostside.learn.Stepper;

/** The server without a browser: a stepper that fails gives the reader one line, not a dead connection. */
class LearnServerTest {
    static final class Broken implements Stepper {
        public String key() {
            return "broken";
        }

        public int module() {
            return 3;
        }

        public String title() {
            return "A stepper that cannot draw";
        }

        public List<Frame> frames(Inputs in) {
            throw new IllegalStateException("no figure to draw");
        }
    }

    @Test
    void aStepperThatFailsIsOneLineAndTheOtherPagesStillServe() throws Exception {
        Site site = new Site(List.of(new Broken()), Inputs.typical(Map.of()), List.of(), "typical figures");
        try (LearnServer server = LearnServer.start(site, 0)) {
            assertThat(get(server, "/module/3")).startsWith("HTTP/1.1 500").endsWith("this page could not be drawn: no figure to draw\n");
            assertThat(get(server, "/module/1")).startsWith("HTTP/1.1 200");
        }
    }

    static String get(LearnServer server, String path) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
