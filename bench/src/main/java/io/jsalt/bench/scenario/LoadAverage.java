package io.jsalt.bench.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load average now ({@code /proc/loadavg}'s first three fields): every figure says the load it was taken under. */
final class LoadAverage {
    private LoadAverage() {
    }

    static String now() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
