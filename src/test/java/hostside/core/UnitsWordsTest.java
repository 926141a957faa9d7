package hostside.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The shares, percentages and counts every drill writes, written one way. */
class UnitsWordsTest {
    @Test
    void aShareIsAWholePercentage() {
        assertThat(Units.share(0.884)).isEqualTo("88%");
        assertThat(Units.share(0.885)).isEqualTo("89%");
        assertThat(Units.share(0)).isEqualTo("0%");
        assertThat(Units.share(1.5)).isEqualTo("150%");
    }

    @Test
    void aPercentageIsWholeFromTenUpAndWhereWholeElseOneDecimal() {
        assertThat(Units.percent(98.4)).isEqualTo("98%");
        assertThat(Units.percent(5)).isEqualTo("5%");
        assertThat(Units.percent(7.25)).isEqualTo("7.3%");
        assertThat(Units.percent(0.3)).isEqualTo("0.3%");
        assertThat(Units.percent(-12.6)).isEqualTo("-13%");
    }

    @Test
    void aCountNamesItsNounOnceOrMany() {
        assertThat(Units.plural(1, "thread")).isEqualTo("1 thread");
        assertThat(Units.plural(0, "thread")).isEqualTo("0 threads");
        assertThat(Units.plural(3, "process", "processes")).isEqualTo("3 processes");
    }
}
