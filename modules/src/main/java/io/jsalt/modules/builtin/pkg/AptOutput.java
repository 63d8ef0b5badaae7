package io.jsalt.modules.builtin.pkg;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads what dpkg-query and apt print, into the shapes Salt's aptpkg returns. */
public final class AptOutput {

    /** What a policy says about one package: its installed and candidate versions, null for "(none)". */
    public record Policy(String installed, String candidate) {
    }

    private static final Set<String> INSTALLED_STATES = Set.of("installed");
    private static final Pattern UPGRADE = Pattern.compile("^Inst\\s+(\\S+)\\s+(?:\\[\\S+\\]\\s+)?\\((\\S+)");

    private AptOutput() {
    }

    /**
     * Installed packages from {@link AptCommand#listInstalled()}: name to version, sorted. A package of a
     * foreign architecture (not {@code nativeArch}, not {@code all}) is named {@code name:arch}, as Salt
     * names it.
     */
    public static Map<String, String> installed(String dpkgQuery, String nativeArch) {
        Map<String, String> packages = new TreeMap<>();
        for (String line : dpkgQuery.split("\n")) {
            // "install ok installed bash 5.2.15-2+b8 amd64"; the version may be empty for a half-removed one
            String[] columns = line.strip().split("\\s+");
            if (columns.length < 6 || !INSTALLED_STATES.contains(columns[2])) {
                continue;
            }
            String name = columns[3];
            String arch = columns[5];
            if (!arch.equals("all") && !arch.equals(nativeArch) && !arch.isEmpty()) {
                name = name + ":" + arch;
            }
            packages.put(name, columns[4]);
        }
        return packages;
    }

    /** {@code apt-cache policy} output: package name to its versions. */
    public static Map<String, Policy> policies(String policyOutput) {
        Map<String, Policy> policies = new LinkedHashMap<>();
        String name = null;
        String installed = null;
        for (String line : policyOutput.split("\n")) {
            if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && line.endsWith(":")) {
                name = line.substring(0, line.length() - 1);
                installed = null;
                continue;
            }
            String trimmed = line.strip();
            if (name == null) {
                continue;
            }
            if (trimmed.startsWith("Installed:")) {
                installed = version(trimmed.substring("Installed:".length()));
            } else if (trimmed.startsWith("Candidate:")) {
                policies.put(name, new Policy(installed, version(trimmed.substring("Candidate:".length()))));
            }
        }
        return policies;
    }

    /**
     * {@code apt-get update} output as Salt's refresh_db returns it: each source to True (new data
     * fetched), None (unchanged), or False (ignored or failed).
     */
    public static Map<String, Object> updateResults(String updateOutput) {
        Map<String, Object> results = new LinkedHashMap<>();
        for (String line : updateOutput.split("\n")) {
            String[] columns = line.strip().split("\\s+");
            if (columns.length < 2) {
                continue;
            }
            String kind = columns[0];
            String ident = String.join(" ", java.util.Arrays.copyOfRange(columns, 1, columns.length));
            if (kind.startsWith("Get")) {
                // drop the trailing "[1234 kB]" size, as Salt does
                results.put(ident.replaceFirst("\\s*\\[[^\\]]*\\]$", ""), true);
            } else if (kind.startsWith("Hit")) {
                results.put(ident, null);
            } else if (kind.startsWith("Ign") || kind.startsWith("Err")) {
                results.put(ident, false);
            }
        }
        return results;
    }

    /** The upgrades an {@code apt-get --just-print} run would install: name to new version, sorted. */
    public static Map<String, String> upgrades(String simulation) {
        Map<String, String> upgrades = new TreeMap<>();
        for (String line : simulation.split("\n")) {
            Matcher match = UPGRADE.matcher(line);
            if (match.find()) {
                upgrades.put(match.group(1), match.group(2));
            }
        }
        return upgrades;
    }

    private static String version(String text) {
        String value = text.strip();
        return value.isEmpty() || value.equals("(none)") ? null : value;
    }
}
