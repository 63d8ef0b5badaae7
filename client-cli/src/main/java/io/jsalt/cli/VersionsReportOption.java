package io.jsalt.cli;

import io.jsalt.modules.builtin.CoreGrains;
import io.jsalt.modules.builtin.VersionsReport;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * Salt's {@code --versions-report} for a tool (mixed in): the versions of jsalt, Java, the libraries on the
 * tool's class path and the system it runs on, in Salt's layout, as {@code salt --versions-report} prints its own.
 */
public final class VersionsReportOption {
    /** The libraries jsalt is built on, as Salt lists its "Dependency Versions" (absent ones as Not Installed). */
    private static final List<String> DEPENDENCIES = List.of("bcprov-jdk18on", "jeromq", "logback-classic", "msgpack-core",
            "picocli", "postgresql", "slf4j-api", "snakeyaml-engine", "sqlite-jdbc");
    private static final Pattern JAR = Pattern.compile("(.+?)-(\\d[^/]*)\\.jar");

    // help = true: like --help, it needs none of the tool's required parameters
    @SuppressWarnings("deprecation")
    @Option(names = "--versions-report", help = true,
            description = "Print the versions of jsalt, Java, its libraries and this system, and exit.")
    boolean requested;

    /** Prints the report when it was asked for; true when it was, and the tool then does nothing else. */
    public boolean printIfRequested(PrintStream out) {
        if (!requested) {
            return false;
        }
        out.println(report(System.getProperty("java.class.path", "")));
        return true;
    }

    static String report(String classPath) {
        Map<String, Map<String, String>> minion = VersionsReport.sections(CoreGrains.collect("localhost"));
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        minion.forEach((title, entries) -> {
            if (title.equals("System Versions")) {
                sections.put("Dependency Versions", dependencies(classPath));
            }
            sections.put(title, entries);
        });
        return VersionsReport.format(sections);
    }

    /** {artifact: version} from the jar names on the class path, sorted as Salt sorts them (ignoring case). */
    static Map<String, String> dependencies(String classPath) {
        Map<String, String> found = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        DEPENDENCIES.forEach(d -> found.put(d, "Not Installed"));
        for (String entry : classPath.split(File.pathSeparator)) {
            Path name = Path.of(entry).getFileName();
            Matcher m = JAR.matcher(name == null ? "" : name.toString());
            if (m.matches() && DEPENDENCIES.contains(m.group(1))) {
                found.put(m.group(1), m.group(2));
            }
        }
        return found;
    }
}
