package hostside.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import hostside.Fixtures;

/** The H200 recording unpacked into a folder, then changed by a shell script run in it: a machine with a planted defect. */
final class PlantedRecording {
    private PlantedRecording() {}

    /** {@code dir}/rec holding the recording as {@code script} (run with set -e in it) left it. */
    static Path of(Path dir, String script) throws IOException, InterruptedException {
        Path root = dir.resolve("rec");
        Files.createDirectories(root);
        sh(root, "tar xzf '" + Fixtures.h200() + "'");
        sh(root, "set -e; " + script);
        return root;
    }

    private static void sh(Path dir, String script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("sh", "-c", script).directory(dir.toFile()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(said).isZero();
    }
}
