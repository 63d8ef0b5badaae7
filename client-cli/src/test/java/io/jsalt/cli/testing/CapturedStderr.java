package io.jsalt.cli.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Takes {@code System.err} for each test ({@code @RegisterExtension}): where picocli's warnings and the
 * tools' own logger write, rather than to the stream a tool is given.
 */
public final class CapturedStderr implements BeforeEachCallback, AfterEachCallback {
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private PrintStream real;

    @Override
    public void beforeEach(ExtensionContext context) {
        buffer.reset();
        real = System.err;
        System.setErr(new PrintStream(buffer, true, UTF_8));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        System.setErr(real);
    }

    /** What was written to {@code System.err} so far in this test. */
    public String text() {
        return buffer.toString(UTF_8);
    }
}
