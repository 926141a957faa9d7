package hostside.learn;

import java.util.List;

/**
 * One stepper of the learning mode: a pure state machine that turns this machine's figures
 * ({@link Inputs}) into frames. The same frames are played in the terminal, written as JSON
 * ({@code hostside learn KEY --json}) and drawn in the browser, so the three cannot disagree.
 * Implementations compute; they never read the machine or measure.
 */
public interface Stepper {
    /** The name on the command line and in the URL: "h2d-copy", "pagewalk". */
    String key();

    /** The course module it belongs to, 1 to 6. */
    int module();

    /** One line: what it shows. */
    String title();

    /** The frames, in order; numbered from 1. Never empty. */
    List<Frame> frames(Inputs in);
}
