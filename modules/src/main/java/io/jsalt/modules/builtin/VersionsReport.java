package io.jsalt.modules.builtin;

import io.jsalt.modules.JsaltVersion;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Salt's {@code salt --versions-report} layout, filled with what a jsalt minion runs on ({@code test.versions_report});
 * the command-line tools print it for their own host ({@code jsalt --versions-report}).
 */
public final class VersionsReport {

    private VersionsReport() {
    }

    /** Sections in Salt's order: the software itself, its runtime, then the system (from the grains). */
    public static Map<String, Map<String, String>> sections(Map<String, Object> grains) {
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        sections.put("Salt Version", Map.of("jsalt", JsaltVersion.current()));
        Map<String, String> java = new LinkedHashMap<>();
        java.put("Java", System.getProperty("java.version", "unknown") + " ("
                + System.getProperty("java.vm.name", "unknown VM") + ")");
        sections.put("Java Version", java);
        Map<String, String> system = new LinkedHashMap<>();
        system.put("dist", String.join(" ", value(grains.get("os")).toLowerCase(Locale.ROOT),
                value(grains.get("osrelease")), value(grains.get("oscodename"))).strip());
        system.put("locale", System.getProperty("file.encoding", "utf-8").toLowerCase(Locale.ROOT));
        system.put("machine", value(grains.get("cpuarch")));
        system.put("release", value(grains.get("kernelrelease")));
        system.put("system", value(grains.get("kernel")));
        system.put("version", String.join(" ", value(grains.get("osfullname")), value(grains.get("osrelease")),
                value(grains.get("oscodename"))).strip());
        sections.put("System Versions", system);
        return sections;
    }

    /** The sections as Salt prints them: a title line, then names right-aligned before their values. */
    static String text(Map<String, Object> grains) {
        return format(sections(grains));
    }

    /** Any sections in that layout. */
    public static String format(Map<String, Map<String, String>> sections) {
        int width = sections.values().stream().flatMap(s -> s.keySet().stream()).mapToInt(String::length)
                .max().orElse(0) + 10;
        StringBuilder out = new StringBuilder();
        sections.forEach((title, entries) -> {
            if (out.length() > 0) {
                out.append("\n \n");
            }
            out.append(title).append(':');
            entries.forEach((name, value) -> out.append('\n')
                    .append(" ".repeat(width - name.length())).append(name).append(": ").append(value));
        });
        return out.toString();
    }

    private static String value(Object value) {
        return Objects.toString(value, "");
    }
}
