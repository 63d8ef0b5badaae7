package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.modules.builtin.pkg.AptCommand;
import io.jsalt.modules.builtin.pkg.AptOutput;
import io.jsalt.modules.builtin.pkg.PackageFamily;
import io.jsalt.modules.builtin.pkg.PackageTargets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Salt's {@code pkg} module for the Debian family (aptpkg.py), through dpkg-query, apt-cache and
 * apt-get. install, remove and purge return Salt's changes dict, {@code {name: {old, new}}}, computed
 * from the package list before and after.
 */
@SaltModule(name = "pkg", doc = "Manage packages with apt and dpkg (Salt's aptpkg module, Debian family only).")
public final class PkgModule implements ExecutionModule {

    private static final Duration QUERY_TIMEOUT = Duration.ofMinutes(2);
    // an install may download and configure for a long time; the job's own timeout can cut it shorter
    private static final Duration CHANGE_TIMEOUT = Duration.ofMinutes(30);

    private final PackageFamily family;

    public PkgModule() {
        this(PackageFamily.DEFAULT_OS_RELEASE);
    }

    /** For tests: reads the OS family from {@code osRelease} instead of /etc/os-release. */
    PkgModule(Path osRelease) {
        this.family = new PackageFamily(osRelease);
    }

    @SaltFunction(doc = "Return the installed packages as {name: version} (foreign-architecture packages as "
            + "name:arch).\n\nCLI Example: salt '*' pkg.list_pkgs")
    public Map<String, String> list_pkgs(@Arg(value = "versions_as_list", defaultValue = "false") boolean versionsAsList,
                                         @KwArgs("kwargs") Map<String, Object> kwargs) {
        family.requireDebian("pkg.list_pkgs");
        return installed();
    }

    @SaltFunction(doc = "Return the installed version of a package ('' if it is not installed); with several "
            + "names, a dict of name to version.\n\nCLI Example: salt '*' pkg.version bash openssl")
    public Object version(@VarArgs("names") List<Object> names, @KwArgs("kwargs") Map<String, Object> kwargs) {
        family.requireDebian("pkg.version");
        List<String> packages = PackageTargets.names(names);
        Map<String, String> installed = installed();
        Map<String, Object> versions = new LinkedHashMap<>();
        packages.forEach(name -> versions.put(name, installed.getOrDefault(name, "")));
        return packages.size() == 1 ? versions.get(packages.get(0)) : versions;
    }

    @SaltFunction(doc = "Return the version that an install or upgrade would bring ('' when the installed one "
            + "is already the latest or none is available); several names give a dict. refresh=True (the "
            + "default, as in Salt) runs apt-get update first.\n\n"
            + "CLI Example: salt '*' pkg.latest_version bash refresh=False")
    public Object latest_version(@VarArgs("names") List<Object> names,
                                 @Arg(value = "refresh", defaultValue = "true") boolean refresh,
                                 @Arg(value = "show_installed", defaultValue = "false") boolean showInstalled) {
        family.requireDebian("pkg.latest_version");
        List<String> packages = PackageTargets.names(names);
        if (refresh) {
            refresh_db();
        }
        Map<String, AptOutput.Policy> policies = AptOutput.policies(succeeded(AptCommand.policy(packages),
                QUERY_TIMEOUT).stdout());
        Map<String, Object> latest = new LinkedHashMap<>();
        for (String name : packages) {
            AptOutput.Policy policy = policies.get(name);
            String candidate = policy == null || policy.candidate() == null ? "" : policy.candidate();
            boolean current = policy != null && candidate.equals(policy.installed());
            latest.put(name, current && !showInstalled ? "" : candidate);
        }
        return packages.size() == 1 ? latest.get(packages.get(0)) : latest;
    }

    @SaltFunction(doc = "Install packages with apt-get: name, or pkgs (a list of names or {name: version}); "
            + "version pins a single name. Options: refresh, fromrepo (-t), reinstall, downloadonly. Returns "
            + "{name: {'old': ..., 'new': ...}} for what changed.\n\n"
            + "CLI Example: salt '*' pkg.install pkgs='[\"foo\", {\"bar\": \"1.2.3-4\"}]'")
    public Map<String, Object> install(@Arg(value = "name", defaultValue = Arg.NULL) String name,
                                       @Arg(value = "refresh", defaultValue = "false") boolean refresh,
                                       @Arg(value = "fromrepo", defaultValue = Arg.NULL) String fromrepo,
                                       @Arg(value = "pkgs", defaultValue = Arg.NULL) List<Object> pkgs,
                                       @Arg(value = "version", defaultValue = Arg.NULL) String version,
                                       @Arg(value = "reinstall", defaultValue = "false") boolean reinstall,
                                       @Arg(value = "downloadonly", defaultValue = "false") boolean downloadOnly,
                                       @KwArgs("kwargs") Map<String, Object> kwargs) {
        family.requireDebian("pkg.install");
        List<String> argv = installCommand(name, pkgs, version, fromrepo, reinstall, downloadOnly);
        if (refresh) {
            refresh_db();
        }
        return changing(argv, "installing");
    }

    @SaltFunction(doc = "Remove packages (name or pkgs), keeping their configuration files. Returns "
            + "{name: {'old': ..., 'new': ''}}.\n\nCLI Example: salt '*' pkg.remove pkgs='[\"foo\", \"bar\"]'")
    public Map<String, Object> remove(@Arg(value = "name", defaultValue = Arg.NULL) String name,
                                      @Arg(value = "pkgs", defaultValue = Arg.NULL) List<Object> pkgs,
                                      @KwArgs("kwargs") Map<String, Object> kwargs) {
        family.requireDebian("pkg.remove");
        return uninstall(name, pkgs, false);
    }

    @SaltFunction(doc = "Remove packages (name or pkgs) and their configuration files. Returns "
            + "{name: {'old': ..., 'new': ''}}.\n\nCLI Example: salt '*' pkg.purge <package name>")
    public Map<String, Object> purge(@Arg(value = "name", defaultValue = Arg.NULL) String name,
                                     @Arg(value = "pkgs", defaultValue = Arg.NULL) List<Object> pkgs,
                                     @KwArgs("kwargs") Map<String, Object> kwargs) {
        family.requireDebian("pkg.purge");
        return uninstall(name, pkgs, true);
    }

    @SaltFunction(doc = "Update the package lists (apt-get update). Returns {source: True (new data) | None "
            + "(unchanged) | False (failed)}.\n\nCLI Example: salt '*' pkg.refresh_db")
    public Map<String, Object> refresh_db() {
        family.requireDebian("pkg.refresh_db");
        return AptOutput.updateResults(succeeded(AptCommand.update(), CHANGE_TIMEOUT).stdout());
    }

    @SaltFunction(doc = "Return the available upgrades as {name: version}, from a dry run of apt-get "
            + "dist-upgrade (upgrade with dist_upgrade=False).\n\nCLI Example: salt '*' pkg.list_upgrades")
    public Map<String, String> list_upgrades(@Arg(value = "refresh", defaultValue = "true") boolean refresh,
                                             @Arg(value = "dist_upgrade", defaultValue = "true") boolean distUpgrade) {
        family.requireDebian("pkg.list_upgrades");
        if (refresh) {
            refresh_db();
        }
        return AptOutput.upgrades(succeeded(AptCommand.simulateUpgrade(distUpgrade), QUERY_TIMEOUT).stdout());
    }

    /** The apt-get command line for an install; public to the package so tests can check it without running it. */
    static List<String> installCommand(String name, List<Object> pkgs, String version, String fromrepo,
                                       boolean reinstall, boolean downloadOnly) {
        return AptCommand.install(PackageTargets.targets(name, pkgs, version), fromrepo, reinstall, downloadOnly);
    }

    /** The apt-get command line for a remove or purge of the given installed packages. */
    static List<String> removeCommand(List<String> names, boolean purge) {
        return AptCommand.remove(names, purge);
    }

    private Map<String, Object> uninstall(String name, List<Object> pkgs, boolean purge) {
        List<String> requested = PackageTargets.targets(name, pkgs, null).stream()
                .map(AptCommand.Target::name).toList();
        Map<String, String> before = installed();
        List<String> present = new ArrayList<>();
        for (String each : requested) {
            if (before.containsKey(each)) {
                present.add(each);
            }
        }
        if (present.isEmpty() && !purge) {
            // Salt's answer when there is nothing to remove: no changes
            return new LinkedHashMap<>();
        }
        return changing(removeCommand(purge ? requested : present, purge), purge ? "purging" : "removing");
    }

    /** Runs a command that changes the installed set and returns Salt's {name: {old, new}} of what changed. */
    private Map<String, Object> changing(List<String> argv, String what) {
        Map<String, String> before = installed();
        CommandOutcome outcome = ExternalTool.run(argv, AptCommand.ENVIRONMENT, CHANGE_TIMEOUT);
        Map<String, String> after = installed();
        Map<String, Object> changes = new LinkedHashMap<>();
        Set<String> names = new TreeSet<>(before.keySet());
        names.addAll(after.keySet());
        for (String each : names) {
            String old = before.getOrDefault(each, "");
            String now = after.getOrDefault(each, "");
            if (!old.equals(now)) {
                changes.put(each, Map.of("old", old, "new", now));
            }
        }
        if (outcome.exitCode() != 0) {
            throw new CommandExecutionException("Error occurred " + what + " package(s): "
                    + ExternalTool.complaint(outcome) + (changes.isEmpty() ? "" : "; changes made: " + changes));
        }
        return changes;
    }

    private static Map<String, String> installed() {
        String arch = succeeded(List.of("dpkg", "--print-architecture"), QUERY_TIMEOUT).stdout().strip();
        return AptOutput.installed(succeeded(AptCommand.listInstalled(), QUERY_TIMEOUT).stdout(), arch);
    }

    private static CommandOutcome succeeded(List<String> argv, Duration timeout) {
        CommandOutcome outcome = ExternalTool.run(argv, AptCommand.ENVIRONMENT, timeout);
        if (outcome.exitCode() != 0) {
            throw new CommandExecutionException(argv.get(0) + " failed: " + ExternalTool.complaint(outcome));
        }
        return outcome;
    }
}
