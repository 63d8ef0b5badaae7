package io.jsalt.api.http;

import java.nio.file.Path;

/** Lets tests outside this package write a self-signed pair ({@code api.crt}, {@code api.key}) into a folder. */
public final class TestPem {
    private TestPem() {}

    public static void selfSigned(Path dir) throws Exception {
        SelfSigned.write(dir);
    }
}
