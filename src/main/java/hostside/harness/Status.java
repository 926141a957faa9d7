package hostside.harness;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What became of a test case: it ran, it does not apply here (with why), or it failed (with why). */
public enum Status {
    OK("ok"), NOT_RUN("not run"), FAILED("failed");

    private final String word;

    Status(String word) {
        this.word = word;
    }

    @JsonValue
    @Override
    public String toString() {
        return word;
    }

    @JsonCreator
    public static Status parse(String s) {
        for (Status v : values()) if (v.word.equals(s)) return v;
        throw new IllegalArgumentException("\"" + s + "\" is not ok, not run or failed");
    }
}
