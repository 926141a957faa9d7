package hostside.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Every class of hidden character becomes a visible escape; ordinary text of any script is kept as it is. */
class PrintableTest {
    @Test
    void everyC0ControlIsShownTabAndLineBreaksByTheirLetter() {
        assertThat(Printable.of("a\tb\nc\rd")).isEqualTo("a\\tb\\nc\\rd");
        assertThat(Printable.of("\u0000\u0007\u0008\u000b\u000c\u001b\u001f")).isEqualTo("\\x00\\x07\\x08\\x0b\\x0c\\x1b\\x1f");
        for (int c = 0; c < 0x20; c++) {
            String shown = Printable.of(String.valueOf((char) c));
            assertThat(shown).as("U+%04X", c).startsWith("\\").hasSizeBetween(2, 4).doesNotContain(String.valueOf((char) c));
        }
    }

    @Test
    void delAndEveryC1ControlAreShown() {
        assertThat(Printable.of("\u007f")).isEqualTo("\\x7f");
        assertThat(Printable.of("\u0080\u0085\u009b\u009d\u009f")).isEqualTo("\\u0080\\u0085\\u009b\\u009d\\u009f");
        for (int c = 0x80; c <= 0x9f; c++) assertThat(Printable.of(String.valueOf((char) c))).isEqualTo(String.format("\\u%04x", c));
    }

    @Test
    void bidiControlsAndLineSeparatorsAreShown() {
        for (int c : List.of(0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069)) {
            assertThat(Printable.of("x" + (char) c + "y")).isEqualTo(String.format("x\\u%04xy", c));
        }
    }

    @Test
    void anEscapeSequenceIsShownWhole() {
        assertThat(Printable.of("EVIL\u001b]52;c;SGVsbG8=\u0007\u001b[2J\u009b31m"))
                .isEqualTo("EVIL\\x1b]52;c;SGVsbG8=\\x07\\x1b[2J\\u009b31m");
    }

    @Test
    void ordinaryTextIsKeptAsItIsThePrintableNeighboursToo() {
        for (String s : List.of("", "NVIDIA H200", "Intel(R) Xeon(R) Platinum 8480+", "Intel® Xeon® Gold", "12.4 µs", "±0.3%, 2×, ≥ 5 °C", "GPU0 → NUMA 1",
                "华为 鲲鹏 920", "東京ノード", "узел-7", "عقدة", "😀 node", "C:\\path\\x1b stays literal", "a ~ { } | ` ^ 0x7e", "\u00a0\u00a1\u00ff", "\u200b\u200d\u2030\u2065\u206a")) {
            assertThat(Printable.of(s)).as(s).isSameAs(s);
        }
        assertThat(Printable.of(null)).isNull();
    }

    @Test
    void whatItShowsIsPrintableAgain() {
        String s = Printable.of("x\u001b\u009b\u202e\n");
        assertThat(Printable.of(s)).isSameAs(s);
    }
}
