package hostside.process;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * A task's state as field 3 of /proc/PID/stat gives it (proc(5)): one letter, written as that
 * letter in JSON. The rules compare states (a thread in D waits on I/O, Z and X have exited), so
 * they are values of their own rather than letters in strings.
 */
public enum TaskState {
    RUNNING('R'),
    SLEEPING('S'),
    /** Uninterruptible sleep, usually waiting on a disk or a network file system. */
    DISK_SLEEP('D'),
    ZOMBIE('Z'),
    STOPPED('T'),
    TRACING_STOP('t'),
    /** Paging before Linux 2.6.0, waking in 2.6.33 to 3.13. */
    WAKING('W'),
    DEAD('X'),
    /** Dead, as Linux 2.6.33 to 3.13 also wrote it. */
    DEAD_OLD('x'),
    /** Linux 2.6.33 to 3.13. */
    WAKEKILL('K'),
    PARKED('P'),
    /** An idle kernel thread (Linux 4.14 on). */
    IDLE('I');

    public final char letter;

    TaskState(char letter) {
        this.letter = letter;
    }

    /** The state of a letter; null for a letter no kernel writes, which makes its line garbage to the parser. */
    public static TaskState of(char letter) {
        for (TaskState s : values()) if (s.letter == letter) return s;
        return null;
    }

    /** Z and X: exited, only the entry is left. */
    public boolean exited() {
        return this == ZOMBIE || this == DEAD || this == DEAD_OLD;
    }

    @JsonValue
    public String json() {
        return String.valueOf(letter);
    }

    @JsonCreator
    public static TaskState parse(String s) {
        TaskState t = s.length() == 1 ? of(s.charAt(0)) : null;
        if (t == null) throw new IllegalArgumentException("\"" + s + "\" is not a task state letter of proc(5)");
        return t;
    }

    @Override
    public String toString() {
        return json();
    }
}
