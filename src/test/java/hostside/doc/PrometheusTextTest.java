package hostside.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import hostside.Fixtures;
import hostside.doc.PrometheusText.Family;
import hostside.doc.PrometheusText.Label;
import hostside.doc.PrometheusText.Sample;
import hostside.doc.PrometheusText.Type;

/**
 * The exposition format's rules (prometheus.io, "Exposition formats" and "Data model"), each one
 * firing and not. testdata/prometheus/edge-cases.prom is what {@link #edgeCases()} writes, byte for
 * byte; .ci/prometheus-test feeds that file to a real node_exporter and reads the scrape back with
 * Prometheus' Python parser, so the escapes and values here are the ones a real reader accepted.
 */
class PrometheusTextTest {

    static Family gauge(String name, Sample... samples) {
        return new Family(name, "help of " + name, Type.GAUGE, List.of(samples));
    }

    /** Every escape and every kind of value the writer has, in one exposition. */
    static PrometheusText edgeCases() {
        return new PrometheusText(List.of(
                new Family("hostside_edge_plain", "A gauge without labels.", Type.GAUGE, List.of(Sample.of(0))),
                new Family("hostside_edge_help", "Help with a backslash \\ and a line feed\nthat stays in one line.", Type.GAUGE,
                        List.of(Sample.of(1))),
                new Family("hostside_edge_labels", "Label values with every escape.", Type.GAUGE, List.of(
                        Sample.of(1, "value", "back\\slash"),
                        Sample.of(2, "value", "double \"quote\""),
                        Sample.of(3, "value", "line\nfeed"),
                        Sample.of(4, "value", "escape \u001b[2J and tab\there"),
                        Sample.of(5, "value", "µs, Xeon® and 中文"),
                        Sample.of(6, "value", ""))),
                new Family("hostside_edge_order", "Labels written in the order given, not sorted.", Type.GAUGE, List.of(
                        Sample.of(1, "zone", "z", "area", "a"),
                        Sample.of(2, "zone", "a", "area", "z"))),
                new Family("hostside_edge_values_total", "Values as Go's ParseFloat reads them.", Type.COUNTER, List.of(
                        Sample.of(9007199254740991.0, "kind", "largest exact long"),
                        Sample.of(1e20, "kind", "large"),
                        Sample.of(0.1, "kind", "fraction"),
                        Sample.of(1.5e-7, "kind", "small"))),
                new Family("hostside_edge_special", "Not-a-number and the infinities.", Type.UNTYPED, List.of(
                        Sample.of(Double.NaN, "kind", "nan"),
                        Sample.of(Double.POSITIVE_INFINITY, "kind", "plus"),
                        Sample.of(Double.NEGATIVE_INFINITY, "kind", "minus"),
                        Sample.of(-3.5, "kind", "negative")))));
    }

    static Path golden() {
        return Fixtures.testdata().resolve("prometheus/edge-cases.prom");
    }

    @Test
    void theEdgeCasesAreTheGoldenFileByteForByte() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        edgeCases().writeTo(out);
        assertThat(new String(out.toByteArray(), StandardCharsets.UTF_8)).isEqualTo(Files.readString(golden(), StandardCharsets.UTF_8));
    }

    @Test
    void eachFamilyIsOneGroupWithHelpThenTypeThenSamplesAndEveryLineEndsInALineFeed() {
        String text = new PrometheusText(List.of(gauge("a", Sample.of(1, "gpu", "0"), Sample.of(2, "gpu", "1")),
                new Family("b_total", "b", Type.COUNTER, List.of(Sample.of(3))))).render();
        assertThat(text).isEqualTo("""
                # HELP a help of a
                # TYPE a gauge
                a{gpu="0"} 1
                a{gpu="1"} 2
                # HELP b_total b
                # TYPE b_total counter
                b_total 3
                """);
        assertThat(text).endsWith("\n").doesNotContain("\r");
    }

    @Test
    void anEmptyExpositionIsEmpty() {
        assertThat(new PrometheusText(List.of()).render()).isEmpty();
    }

    @Test
    void valuesAreWrittenAsGoReadsThem() {
        assertThat(PrometheusText.value(Double.NaN)).isEqualTo("NaN");
        assertThat(PrometheusText.value(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
        assertThat(PrometheusText.value(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
        assertThat(PrometheusText.value(3)).isEqualTo("3");
        assertThat(PrometheusText.value(-3)).isEqualTo("-3");
        assertThat(PrometheusText.value(-0.0)).isEqualTo("0");
        assertThat(PrometheusText.value(0x1p53 - 1)).isEqualTo("9007199254740991");
        // past 2^53 a double is no longer every integer: the shortest form that reads back to it
        assertThat(PrometheusText.value(0x1p53)).isEqualTo("9.007199254740992E15");
        assertThat(PrometheusText.value(0.1)).isEqualTo("0.1");
        assertThat(Double.parseDouble(PrometheusText.value(1.0 / 3))).isEqualTo(1.0 / 3);
    }

    @Test
    void valuesDoNotDependOnTheLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY); // a decimal comma, were the locale used
            assertThat(PrometheusText.value(0.5)).isEqualTo("0.5");
            assertThat(PrometheusText.value(1234567)).isEqualTo("1234567");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void helpEscapesBackslashAndLineFeedButNotTheQuote() {
        assertThat(PrometheusText.escape("a\\b\nc \"d\"", false)).isEqualTo("a\\\\b\\nc \"d\"");
        assertThat(PrometheusText.escape("plain words", false)).isEqualTo("plain words");
    }

    @Test
    void labelValuesEscapeBackslashQuoteAndLineFeed() {
        assertThat(PrometheusText.escape("a\\b\nc \"d\"", true)).isEqualTo("a\\\\b\\nc \\\"d\\\"");
        assertThat(PrometheusText.escape("GPU-5f0a µs", true)).isEqualTo("GPU-5f0a µs");
    }

    @Test
    void controlsATerminalWouldActOnBecomeVisibleEscapes() {
        // ESC, CR, tab, C1 and a bidi override reach no one's terminal raw when the file is shown
        assertThat(PrometheusText.escape("a\u001bb\rc\td\u009be\u202ef", true)).isEqualTo("a\\\\x1bb\\\\rc\\\\td\\\\u009be\\\\u202ef");
        assertThat(PrometheusText.escape("\u001b", false)).isEqualTo("\\\\x1b");
        String text = new PrometheusText(List.of(new Family("m", "help \u001b[2J", Type.GAUGE, List.of(Sample.of(1, "n", "\u001b]52;c;x\u0007")))))
                .render();
        assertThat(text.chars().filter(c -> c < 0x20 && c != '\n')).isEmpty();
    }

    @Test
    void metricNamesAreLegacyNamesWithoutColons() {
        for (String ok : List.of("a", "_a", "hostside_gpu_ok", "A9_b")) assertThat(gauge(ok).name()).isEqualTo(ok);
        for (String bad : List.of("", "9a", "a-b", "a.b", "a b", "a:b", "gpü", "a\n")) {
            assertThatThrownBy(() -> gauge(bad)).as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("metric name");
        }
        assertThatThrownBy(() -> gauge(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void labelNamesMatchTheDataModelAndDoubleUnderscoreIsReserved() {
        for (String ok : List.of("gpu", "_gpu", "pci_bus_id", "UUID", "a1")) assertThat(new Label(ok, "v").name()).isEqualTo(ok);
        for (String bad : List.of("", "1gpu", "gpu-id", "gpu:id", "a.b")) {
            assertThatThrownBy(() -> new Label(bad, "v")).as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("label name");
        }
        assertThatThrownBy(() -> new Label("__name__", "v")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
        assertThatThrownBy(() -> new Label("gpu", null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no value");
    }

    @Test
    void aLabelOnlyOncePerSample() {
        assertThat(Sample.of(1, "a", "1", "b", "1").labels()).hasSize(2);
        assertThatThrownBy(() -> Sample.of(1, "a", "1", "a", "2")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        assertThatThrownBy(() -> Sample.of(1, "a")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pair");
    }

    @Test
    void nameAndLabelsAreUniqueWithinAFamilyWhateverTheLabelOrder() {
        assertThat(gauge("m", Sample.of(1, "a", "1", "b", "2"), Sample.of(2, "a", "1", "b", "3")).samples()).hasSize(2);
        assertThatThrownBy(() -> gauge("m", Sample.of(1, "a", "1"), Sample.of(2, "a", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
        assertThatThrownBy(() -> gauge("m", Sample.of(1), Sample.of(2))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }

    @Test
    void everySampleOfAFamilyHasTheSameLabelNamesInOneOrder() {
        assertThatThrownBy(() -> gauge("m", Sample.of(1, "gpu", "0"), Sample.of(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same label names");
        assertThatThrownBy(() -> gauge("m", Sample.of(1, "a", "1", "b", "2"), Sample.of(2, "b", "2", "a", "1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same label names");
    }

    @Test
    void aMetricIsOneGroupSoItsNameAppearsOnce() {
        assertThat(new PrometheusText(List.of(gauge("a"), gauge("b"))).families()).hasSize(2);
        assertThatThrownBy(() -> new PrometheusText(List.of(gauge("a", Sample.of(1, "g", "0")), gauge("a", Sample.of(1, "g", "1")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one group");
    }

    @Test
    void everyFamilyHasHelpAndAType() {
        assertThatThrownBy(() -> new Family("m", " ", Type.GAUGE, List.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("help");
        assertThatThrownBy(() -> new Family("m", null, Type.GAUGE, List.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("help");
        assertThatThrownBy(() -> new Family("m", "h", null, List.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("type");
        assertThat(Type.UNTYPED.word()).isEqualTo("untyped");
    }

    @Test
    void noLineCarriesATimestamp() {
        // a sample line is "name{labels} value": two fields after the labels would be a timestamp
        for (String line : edgeCases().render().split("\n")) {
            if (line.startsWith("#")) continue;
            String afterLabels = line.substring(line.lastIndexOf('}') + 1).strip();
            assertThat(afterLabels.split(" ")).as(line).hasSize(line.contains("{") ? 1 : 2);
        }
    }
}
