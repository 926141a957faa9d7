package hostside.cpu.dataloader;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

import hostside.harness.Detail;

/**
 * What fork vs spawn gives beside its figure (a spawned worker's start-up): how each way of
 * starting a worker fared once the parent had initialised CUDA, each spawn try, and the versions.
 *
 * @param fork                  a fork()ed child touching CUDA (torch refuses: "Cannot re-initialize CUDA in forked subprocess")
 * @param forkCpu               a fork()ed child staying on the CPU
 * @param spawn                 spawned children touching CUDA: ok when every try was
 * @param spawnTries            each spawn try
 * @param spawnCudaSeconds      the median time a spawned child took to initialise CUDA; null when none did
 * @param parentCudaInitSeconds how long the parent took to initialise CUDA
 * @param device                the GPU torch saw
 * @param torch                 torch's version
 * @param cuda                  the CUDA version torch was built with
 */
public record SpawnDetail(Outcome fork, Outcome forkCpu, Outcome spawn, List<SpawnTry> spawnTries, Double spawnCudaSeconds,
                          double parentCudaInitSeconds, String device, String torch, String cuda) implements Detail {
    public SpawnDetail {
        spawnTries = List.copyOf(spawnTries);
    }

    /**
     * How one way of starting a worker fared. Written as the JSON has always said it: "ok", "not
     * tried" or "failed: " and the child's error.
     *
     * @param error the child's error when it failed; "" otherwise
     */
    public record Outcome(State state, String error) {
        public enum State { OK, FAILED, NOT_TRIED }

        public static final Outcome OK = new Outcome(State.OK, "");
        public static final Outcome NOT_TRIED = new Outcome(State.NOT_TRIED, "");

        public static Outcome failed(String error) {
            return new Outcome(State.FAILED, error);
        }

        public boolean failed() {
            return state == State.FAILED;
        }

        @JsonValue
        public String text() {
            return switch (state) {
                case OK -> "ok";
                case NOT_TRIED -> "not tried";
                case FAILED -> "failed: " + error;
            };
        }

        @JsonCreator
        public static Outcome parse(String text) {
            if (text.equals("ok")) return OK;
            if (text.equals("not tried")) return NOT_TRIED;
            if (text.startsWith("failed: ")) return failed(text.substring("failed: ".length()));
            throw new IllegalArgumentException("\"" + text + "\" is not ok, not tried or failed: ...");
        }
    }

    /**
     * One spawned child.
     *
     * @param attempt      the try's number, from 1 ("try" in JSON, as the script writes it)
     * @param ok           whether it started and used CUDA
     * @param startSeconds Process.start() to the child having imported torch; null when it never got there
     * @param cudaSeconds  its CUDA initialisation; null when it never got there
     * @param error        its error; null when none
     */
    public record SpawnTry(@JsonProperty("try") int attempt, boolean ok, Double startSeconds, Double cudaSeconds, String error) {}
}
