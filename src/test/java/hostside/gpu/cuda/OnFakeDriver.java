package hostside.gpu.cuda;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tests against the fake libcuda.so.1: built once per test class (with {@link #flags()}), reset
 * and opened before each test, and the library property cleared after it. Any package's GPU
 * tests extend it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class OnFakeDriver {
    protected FakeDriver fake;
    protected Cuda cuda;

    /** gcc flags for the fake: {@code -DFAKE_CUDA_OLD} builds a driver older than some functions. */
    protected List<String> flags() {
        return List.of();
    }

    @BeforeAll
    protected void build(@TempDir Path dir) {
        fake = FakeDriver.build(dir, flags());
    }

    /** False for tests of opening itself: they open the driver their own way. */
    protected boolean openBeforeEach() {
        return true;
    }

    @BeforeEach
    protected void open() {
        fake.reset();
        if (openBeforeEach()) cuda = fake.ready();
    }

    @AfterEach
    protected void clearProperty() {
        System.clearProperty(Cuda.LIBRARY_PROPERTY);
    }
}
