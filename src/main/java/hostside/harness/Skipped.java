package hostside.harness;

import java.util.Optional;

import hostside.core.Better;

/**
 * A case left out of this run on purpose (the report's --quick): it keeps its key, description
 * and peer, so its row still says what it would measure, and is "not run" with the reason. Being a
 * different class, it also stops a drill from preparing for it (a drill that writes its test file
 * only for its file cases writes none when they are all skipped).
 */
public record Skipped<C>(TestCase<C> of, String why) implements TestCase<C> {
    @Override
    public String key() {
        return of.key();
    }

    @Override
    public String description() {
        return of.description();
    }

    @Override
    public Optional<String> notApplicable(C target) {
        return Optional.of(why);
    }

    @Override
    public Result run(C target) {
        throw new IllegalStateException(key() + " is skipped: " + why);
    }

    @Override
    public String anchor() {
        return of.anchor();
    }

    @Override
    public Better better() {
        return of.better();
    }

    @Override
    public Class<? extends Detail> detailType() {
        return of.detailType();
    }
}
