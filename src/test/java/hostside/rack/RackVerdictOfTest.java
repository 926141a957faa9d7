package hostside.rack;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import hostside.core.Severity;

/** A finding's severity and a checklist line's verdict read each other both ways. */
class RackVerdictOfTest {
    @Test
    void everySeverityIsTheVerdictWhoseSeverityItIs() {
        for (Severity s : Severity.values()) assertThat(RackVerdict.of(s).severity()).as(s.toString()).isEqualTo(s);
        assertThat(RackVerdict.NA.severity()).isNull();
    }
}
