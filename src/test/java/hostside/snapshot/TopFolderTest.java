package hostside.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A snapshot's top folder is the host name only when that is a plain name; hostside.cli.HostNameTest runs it through the command. */
class TopFolderTest {
    @ParameterizedTest
    @ValueSource(strings = {"gpu17", "h200", "node-0_a.b", "A1", "9"})
    void aPlainNameIsKept(String name) {
        assertThat(Snapshot.topFolder(name)).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", ".hidden", "-rf", "a/b", "../x", "a b", "node\u001b[2J", "bell\u0007", "two\nlines", "tab\t",
            "n\u00e9ud", "rtl\u202e", "semi;colon", "q'uote", "$(x)"})
    void anythingElseIsTheDefault(String name) {
        assertThat(Snapshot.topFolder(name)).isEqualTo("hostside-snapshot");
    }

    @Test
    void atMost64Characters() {
        assertThat(Snapshot.topFolder("a".repeat(64))).isEqualTo("a".repeat(64));
        assertThat(Snapshot.topFolder("a".repeat(65))).isEqualTo("hostside-snapshot");
    }
}
