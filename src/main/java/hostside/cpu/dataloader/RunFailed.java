package hostside.cpu.dataloader;

/**
 * Why a script's run gave no figures: it failed, stopped or ran out of time; or (a case that
 * does not apply) the script found what it needs missing, numpy for an array dataset.
 */
public final class RunFailed extends RuntimeException {
    private final boolean notRun;

    public RunFailed(String message) {
        this(message, false);
    }

    private RunFailed(String message, boolean notRun) {
        super(message, null, false, false);
        this.notRun = notRun;
    }

    /** The machine lacks what the case needs: the case is not run, nothing failed. */
    public static RunFailed notRun(String why) {
        return new RunFailed(why, true);
    }

    /** Whether the case does not apply here rather than failed. */
    public boolean notRun() {
        return notRun;
    }
}
