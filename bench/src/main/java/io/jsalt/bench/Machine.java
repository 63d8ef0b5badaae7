package io.jsalt.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the figures were taken on: CPU model and count, memory, OS, JVM, load at the start. */
final class Machine {
    private Machine() {
    }

    static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu", cpuModel());
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("memory_gib", memTotalGiB());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        m.put("loadavg_at_start", read("/proc/loadavg").trim());
        return m;
    }

    private static String cpuModel() {
        for (String line : read("/proc/cpuinfo").split("\n")) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).trim();
            }
        }
        return "unknown";
    }

    private static long memTotalGiB() {
        for (String line : read("/proc/meminfo").split("\n")) {
            if (line.startsWith("MemTotal:")) {
                return Math.round(Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0);
            }
        }
        return 0;
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            return "";
        }
    }
}
