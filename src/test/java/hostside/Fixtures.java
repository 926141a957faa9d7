package hostside;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

import hostside.core.Json;
import hostside.report.Upgrade;

/**
 * Where the tests' recorded machines are: {@code testdata/} in this repository (hwloc's test
 * machines with hwloc's expected output, the H200 recording; testdata/README.md says where each
 * came from), so that a clone with nothing beside it passes ./run-tests.
 */
public final class Fixtures {
    private Fixtures() {}

    public static Path testdata() {
        Path p = Path.of(System.getProperty("hostside.testdata", "testdata")).toAbsolutePath().normalize();
        if (!Files.isDirectory(p.resolve("hwloc")) || !Files.isRegularFile(p.resolve("h200/sysfs.tar.gz"))) {
            throw new IllegalStateException("the test data is not at " + p + ": it is part of the repository (testdata/); run the tests from the project root");
        }
        return p;
    }

    public static Path hwloc() {
        return testdata().resolve("hwloc");
    }

    public static Path h200() {
        return testdata().resolve("h200/sysfs.tar.gz");
    }

    /**
     * The H200's report of schema hostside/1 (2026-12-03) as every reader sees it: rewritten into
     * today's shape by the report's upgrade, the one place that knows the old shapes.
     */
    public static JsonNode firstSchemaReport() throws IOException {
        return Upgrade.report(Json.MAPPER.readTree(testdata().resolve("reports/h200-hostside1.json").toFile()));
    }
}
