package hostside.cpu.dataloader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** The script's processes write concurrently: events come out of order, with noise between them. */
class EventStreamTest {
    static EventStream of(String text) {
        return new EventStream(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    static String name(JsonNode e) {
        return e == null ? null : e.path("event").asText();
    }

    @Test
    void aWorkersReadyBeforeMainsForkedIsKept() throws Exception {
        EventStream s = of("""
                {"event": "start", "pid": 1}
                {"event": "ready", "worker": 0, "pid": 2}
                not json at all
                [1, 2]
                {"event": "forked", "workers": [2, 3]}
                {"event": "ready", "worker": 1, "pid": 3}
                {"event": "pass", "worker": 0}
                """);
        long second = 1_000_000_000L;
        assertThat(name(s.next("start", second))).isEqualTo("start");
        assertThat(name(s.next("forked", second))).isEqualTo("forked");
        assertThat(s.next("ready", second).path("pid").asLong()).isEqualTo(2);
        assertThat(s.next("ready", second).path("pid").asLong()).isEqualTo(3);
        assertThat(name(s.poll(second))).isEqualTo("pass");
        assertThat(name(s.next("finished", second))).as("the end of the stream ends a wait").isEqualTo(EventStream.EOF);
        assertThat(s.text()).containsExactly("not json at all", "[1, 2]");
    }

    /** A serving script's runs follow one another on one stream: each starts with nothing set aside by the one before. */
    @Test
    void aNewRunForgetsWhatTheLastSetAside() throws Exception {
        EventStream s = of("""
                {"event": "pass", "pid": 2}
                {"event": "done", "status": "ok"}
                {"event": "unavailable", "reason": "numpy not installed (pip install numpy)"}
                {"event": "prepared"}
                """);
        long second = 1_000_000_000L;
        assertThat(name(s.next("done", second))).isEqualTo("done");
        s.forget();
        assertThat(s.next("prepared", second).path("reason").asText()).as("an unavailable ends a wait at once")
                .isEqualTo("numpy not installed (pip install numpy)");
        assertThat(name(s.poll(second))).isEqualTo("prepared");
    }

    @Test
    void anErrorEndsAWaitAtOnce() throws Exception {
        EventStream s = of("{\"event\": \"pass\"}\n{\"event\": \"error\", \"reason\": \"worker 1: MemoryError: \"}\n{\"event\": \"ready\"}\n");
        JsonNode e = s.next("ready", 1_000_000_000L);
        assertThat(name(e)).isEqualTo("error");
        assertThat(e.path("reason").asText()).startsWith("worker 1: MemoryError");
    }
}
