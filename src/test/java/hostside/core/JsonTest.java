package hostside.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** JSON is safe on a terminal too: every hidden character is a \\u escape, and the string reads back as it was. */
class JsonTest {
    static final String NAME = "EVIL\u001b]52;c;SGVsbG8=\u0007\u001b[2J\u009b31m\u0085\u202e\u2028\u007f\n µs Xeon® 华为";

    @Test
    void delC1BidiAndSeparatorsAreEscapedAndReadBack() throws Exception {
        String json = Json.write(Map.of("name", NAME));
        assertThat(json).doesNotContain("\u001b").doesNotContain("\u0007").doesNotContain("\u007f").doesNotContain("\u009b").doesNotContain("\u0085")
                .doesNotContain("\u202e").doesNotContain("\u2028");
        assertThat(json).containsIgnoringCase("\\u007f").containsIgnoringCase("\\u009b").containsIgnoringCase("\\u202e").containsIgnoringCase("\\u2028");
        assertThat(json).as("ordinary letters stay letters").contains("µs Xeon® 华为");
        assertThat(Json.MAPPER.readTree(json).path("name").asText()).isEqualTo(NAME);
    }

    @Test
    void aFileWrittenByTheMapperIsEscapedToo() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Json.MAPPER.writeValue(bytes, Map.of("name", NAME));
        String json = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("\u007f").doesNotContain("\u009b").doesNotContain("\u202e");
        assertThat(Json.MAPPER.readTree(json).path("name").asText()).isEqualTo(NAME);
    }
}
