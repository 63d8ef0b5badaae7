package io.jsalt.states.builtin.pkg;

import io.jsalt.modules.builtin.ExternalTool;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.modules.builtin.pkg.AptCommand;
import io.jsalt.states.StatesException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * dpkg and apt, on the host or on a root folder: with a root, dpkg works on {@code <root>/var/lib/dpkg} and
 * unpacks under the root ({@code --root}), and apt reads its sources, lists and cache there too ({@code -o Dir}),
 * so that a test or an image build never touches the host's package database.
 */
public final class DebianPackages implements PackageManager {
    // an install may download and configure for a long time; the job's own timeout can cut it shorter
    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    // Debian policy 5.6.1 and 5.6.12 (with an optional :arch), checked so that no name can pass for an option
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9+.-]+(:[a-z0-9-]+)?");
    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9.+~:-]+");

    private final Path root; // null: the host

    private DebianPackages(Path root) {
        this.root = root;
    }

    public static DebianPackages host() {
        return new DebianPackages(null);
    }

    /** Packages of a root folder holding var/lib/dpkg/status and, for apt, etc/apt/sources.list. */
    public static DebianPackages under(Path root) {
        return new DebianPackages(root.toAbsolutePath().normalize());
    }

    @Override
    public Map<String, String> installed() {
        return byStatus("ii ");
    }

    @Override
    public Set<String> configRemnants() {
        return byStatus("rc ").keySet();
    }

    private Map<String, String> byStatus(String abbrev) {
        List<String> argv = new ArrayList<>(List.of("dpkg-query"));
        if (root != null) {
            argv.add("--admindir=" + root.resolve("var/lib/dpkg"));
        }
        argv.addAll(List.of("-W", "-f=${db:Status-Abbrev}\\t${Package}\\t${Version}\\n"));
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : succeeded(argv).stdout().split("\n")) {
            String[] f = line.split("\t");
            if (f.length == 3 && f[0].equals(abbrev)) {
                out.put(f[1], f[2]);
            }
        }
        return out;
    }

    @Override
    public Map<String, String> candidates(List<String> names) {
        List<String> argv = apt("apt-cache");
        argv.add("policy");
        names.forEach(n -> argv.add(checkedName(n)));
        Map<String, String> out = new LinkedHashMap<>();
        names.forEach(n -> out.put(n, ""));
        String current = null;
        for (String line : succeeded(argv).stdout().split("\n")) {
            if (!line.startsWith(" ") && line.endsWith(":")) {
                current = line.substring(0, line.length() - 1);
            } else if (current != null && line.strip().startsWith("Candidate:")) {
                String candidate = line.strip().substring("Candidate:".length()).strip();
                out.put(current, candidate.equals("(none)") ? "" : candidate);
            }
        }
        return out;
    }

    @Override
    public void refresh() {
        List<String> argv = apt("apt-get");
        argv.addAll(List.of("-q", "update"));
        succeeded(argv);
    }

    @Override
    public void install(Map<String, String> targets) {
        List<String> argv = apt("apt-get");
        argv.addAll(List.of("-q", "-y", "-o", "DPkg::Options::=--force-confold", "-o",
                "DPkg::Options::=--force-confdef", "--allow-downgrades", "install"));
        targets.forEach((name, version) -> argv.add(version == null ? checkedName(name)
                : checkedName(name) + "=" + checkedVersion(name, version)));
        succeeded(argv);
    }

    @Override
    public void installFiles(List<Path> files) {
        List<String> argv = dpkg();
        argv.add("-i");
        files.forEach(f -> argv.add(f.toAbsolutePath().toString()));
        succeeded(argv);
    }

    @Override
    public Map.Entry<String, String> describeFile(Path file) {
        String[] f = succeeded(List.of("dpkg-deb", "-f", file.toAbsolutePath().toString(), "Package", "Version"))
                .stdout().split("\n");
        String name = f.length > 0 ? f[0].replaceFirst("^Package:\\s*", "").strip() : "";
        String version = f.length > 1 ? f[1].replaceFirst("^Version:\\s*", "").strip() : "";
        return Map.entry(checkedName(name), version);
    }

    @Override
    public void remove(List<String> names) {
        change("remove", names);
    }

    @Override
    public void purge(List<String> names) {
        change("purge", names);
    }

    private void change(String action, List<String> names) {
        List<String> argv = apt("apt-get");
        argv.addAll(List.of("-q", "-y", action));
        names.forEach(n -> argv.add(checkedName(n)));
        succeeded(argv);
    }

    private List<String> dpkg() {
        List<String> argv = new ArrayList<>(List.of("dpkg"));
        if (root != null) {
            argv.addAll(List.of("--root=" + root, "--force-not-root"));
        }
        return argv;
    }

    /** apt-get or apt-cache, pointed at the root's files when there is one. */
    private List<String> apt(String tool) {
        List<String> argv = new ArrayList<>(List.of(tool));
        if (root != null) {
            for (String option : List.of("Dir=" + root, "Dir::State::status=" + root.resolve("var/lib/dpkg/status"),
                    "DPkg::Options::=--root=" + root, "DPkg::Options::=--force-not-root", "Debug::NoLocking=1",
                    "APT::Sandbox::User=root", "Dir::Bin::dpkg=/usr/bin/dpkg")) {
                argv.add("-o");
                argv.add(option);
            }
        }
        return argv;
    }

    private static String checkedName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new StatesException("Invalid package name '" + name + "'");
        }
        return name;
    }

    private static String checkedVersion(String name, String version) {
        if (version.startsWith("-") || !VERSION.matcher(version).matches()) {
            throw new StatesException("Invalid version '" + version + "' for package " + name);
        }
        return version;
    }

    private static CommandOutcome succeeded(List<String> argv) {
        CommandOutcome outcome = ExternalTool.run(argv, AptCommand.ENVIRONMENT, TIMEOUT);
        if (outcome.exitCode() != 0) {
            throw new StatesException(argv.get(0) + " failed: " + ExternalTool.complaint(outcome));
        }
        return outcome;
    }
}
