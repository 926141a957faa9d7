package hostside.machine;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import hostside.core.CpuSet;
import hostside.fs.FsRoot;
import hostside.core.GarbageException;

/**
 * Typed reads of single-value files, shared by the fact readers: a missing file is simply
 * absent, a file holding garbage is absent too and leaves an "unknown (why)" line behind.
 */
final class Facts {
    private final FsRoot fs;
    private final List<String> unknowns;

    Facts(FsRoot fs, List<String> unknowns) {
        this.fs = fs;
        this.unknowns = unknowns;
    }

    Optional<CpuSet> cpuList(String path) {
        return parse(path, CpuSet::parseList, "not a CPU list");
    }

    Optional<CpuSet> cpuMask(String path) {
        return parse(path, CpuSet::parseMask, "not a CPU mask");
    }

    Optional<Integer> integer(String path) {
        return parse(path, s -> Integer.parseInt(CpuSet.sysfsValue(s)), "not a number");
    }

    private <T> Optional<T> parse(String path, Function<String, T> parser, String what) {
        Optional<String> t = fs.text(path);
        if (t.isEmpty()) return Optional.empty();
        try {
            return Optional.of(parser.apply(t.get()));
        } catch (GarbageException | IllegalArgumentException e) {
            String shown = t.get().length() > 40 ? t.get().substring(0, 40) + "..." : t.get();
            unknowns.add(path + ": " + what + ": \"" + shown + "\"");
            return Optional.empty();
        }
    }
}
