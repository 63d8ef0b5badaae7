package io.jsalt.modules.builtin.pkg;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Builds the apt-get, apt-cache and dpkg-query command lines of Salt's {@code aptpkg} module. Every
 * package name and version is checked against Debian policy first, so none can pass for an option.
 */
public final class AptCommand {

    /** Salt's environment for apt: no questions, no pagers. */
    public static final Map<String, String> ENVIRONMENT = Map.of("DEBIAN_FRONTEND", "noninteractive",
            "APT_LISTBUGS_FRONTEND", "none", "APT_LISTCHANGES_FRONTEND", "none");

    // Debian policy 5.6.1 and 5.6.12, with an optional :arch qualifier
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9+.-]+(:[a-z0-9-]+)?");
    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9.+~:-]+");
    private static final Pattern RELEASE = Pattern.compile("[A-Za-z0-9.+~/_-]+");

    /** One package to install, optionally at a version. */
    public record Target(String name, String version) {
        public Target {
            checkName(name);
            if (version != null && (version.startsWith("-") || !VERSION.matcher(version).matches())) {
                throw new CommandExecutionException("Invalid version '" + version + "' for package " + name);
            }
        }

        /** apt's spelling: {@code name=version}. */
        String argument() {
            return version == null ? name : name + "=" + version;
        }
    }

    private AptCommand() {
    }

    /** Refuses what is not a Debian package name. */
    public static String checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new CommandExecutionException("Invalid package name '" + name + "'");
        }
        return name;
    }

    /** Every package dpkg knows, with its status, name, version and architecture. */
    public static List<String> listInstalled() {
        return List.of("dpkg-query", "--showformat", "${Status} ${Package} ${Version} ${Architecture}\\n", "-W");
    }

    /** {@code apt-cache -q policy <names>}: installed and candidate versions. */
    public static List<String> policy(List<String> names) {
        List<String> argv = new ArrayList<>(List.of("apt-cache", "-q", "policy"));
        names.forEach(name -> argv.add(checkName(name)));
        return argv;
    }

    /** {@code apt-get -q update}. */
    public static List<String> update() {
        return List.of("apt-get", "-q", "update");
    }

    /**
     * {@code apt-get install}, keeping changed configuration files as Salt does (force-confold,
     * force-confdef).
     */
    public static List<String> install(List<Target> targets, String fromrepo, boolean reinstall,
                                       boolean downloadOnly) {
        if (targets.isEmpty()) {
            throw new CommandExecutionException("No packages to install");
        }
        List<String> argv = new ArrayList<>(List.of("apt-get", "-q", "-y",
                "-o", "DPkg::Options::=--force-confold", "-o", "DPkg::Options::=--force-confdef"));
        if (fromrepo != null) {
            if (fromrepo.startsWith("-") || !RELEASE.matcher(fromrepo).matches()) {
                throw new CommandExecutionException("Invalid fromrepo '" + fromrepo + "'");
            }
            argv.add("-t");
            argv.add(fromrepo);
        }
        if (reinstall) {
            argv.add("--reinstall");
        }
        if (downloadOnly) {
            argv.add("--download-only");
        }
        argv.add("install");
        targets.forEach(target -> argv.add(target.argument()));
        return argv;
    }

    /** {@code apt-get -q -y remove|purge <names>}. */
    public static List<String> remove(List<String> names, boolean purge) {
        if (names.isEmpty()) {
            throw new CommandExecutionException("No packages to remove");
        }
        List<String> argv = new ArrayList<>(List.of("apt-get", "-q", "-y", purge ? "purge" : "remove"));
        names.forEach(name -> argv.add(checkName(name)));
        return argv;
    }

    /** A dry run of an upgrade, whose {@code Inst} lines list what would be upgraded. */
    public static List<String> simulateUpgrade(boolean distUpgrade) {
        return List.of("apt-get", "--just-print", distUpgrade ? "dist-upgrade" : "upgrade");
    }
}
