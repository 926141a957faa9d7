package hostside.vm.explain;

/** Test helper: counts sentences the way a reader would (a full stop, ? or ! followed by a space or the end). */
final class Narration {
    private Narration() {}

    static int sentences(String text) {
        return text.strip().split("(?<=[.!?])\\s+").length;
    }
}
