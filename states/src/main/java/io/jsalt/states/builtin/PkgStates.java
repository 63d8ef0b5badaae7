package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.builtin.pkg.DebianPackages;
import io.jsalt.states.builtin.pkg.PackageManager;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Salt's {@code pkg.installed}, {@code pkg.removed}, {@code pkg.purged} and {@code pkg.latest}
 * (salt/states/pkg.py) on a {@link PackageManager}, with Salt's comments and {@code {name: {old, new}}} changes.
 * Versions are exact ({@code 1.2-1}) or {@code latest}; Salt's comparison operators ({@code >=1.2}) are refused.
 */
public final class PkgStates {
    private final PackageManager packages;

    PkgStates(PackageManager packages) {
        this.packages = packages;
    }

    public static void register(StateFunctions functions) {
        new PkgStates(DebianPackages.host()).addTo(functions);
    }

    void addTo(StateFunctions functions) {
        functions.add("pkg.installed", this::installed)
                .add("pkg.latest", this::latest)
                .add("pkg.removed", this::removed)
                .add("pkg.purged", this::purged);
    }

    StateResult installed(StateCall call) {
        call.allowOnly("pkg.installed", List.of("version", "pkgs", "sources", "refresh"));
        if (call.args().containsKey("sources")) {
            return new PackageSources(call, packages).install();
        }
        Map<String, String> desired = PackageSources.desired(call);
        if (desired.isEmpty()) {
            return StateResult.ok("No packages to install provided");
        }
        Map<String, String> before = packages.installed();
        // Salt 3006 packs a lone name (and version) into pkgs, so its comments are those of a list
        if (call.flag("refresh", false)) {
            packages.refresh();
        }
        resolveLatest(desired, before);
        Map<String, String> targets = new LinkedHashMap<>();
        desired.forEach((name, version) -> {
            if (!fulfilled(before, name, version)) {
                targets.put(name, version);
            }
        });
        if (targets.isEmpty()) {
            boolean versioned = desired.values().stream().anyMatch(Objects::nonNull);
            return StateResult.ok("All specified packages are already installed"
                    + (versioned ? " and are at the desired version" : ""));
        }
        if (call.test()) {
            Map<String, Object> changes = new LinkedHashMap<>();
            targets.keySet().forEach(n -> changes.put(n, Map.of("new", "installed", "old", "")));
            return StateResult.wouldChange(changes, "The following packages would be installed/updated: "
                    + String.join(", ", targets.keySet()));
        }
        try {
            packages.install(targets);
        } catch (StatesException e) {
            return new StateResult(false, changes(before, packages.installed()),
                    "An error was encountered while installing package(s): " + e.getMessage());
        }
        Map<String, String> after = packages.installed();
        List<String> modified = new ArrayList<>();
        List<String> notModified = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        desired.forEach((name, version) -> {
            if (!fulfilled(after, name, version)) {
                failed.add(name);
            } else {
                (targets.containsKey(name) ? modified : notModified).add(name);
            }
        });
        return new StateResult(failed.isEmpty(), changes(before, after),
                installComment(modified, notModified, failed, name -> withVersion(name, desired.get(name))));
    }

    /** Salt's {@code version: latest}: the candidate version, or nothing (then any installed version will do). */
    private void resolveLatest(Map<String, String> desired, Map<String, String> installed) {
        List<String> latest = desired.entrySet().stream().filter(e -> "latest".equals(e.getValue()))
                .map(Map.Entry::getKey).toList();
        if (latest.isEmpty()) {
            return;
        }
        Map<String, String> candidates = packages.candidates(latest);
        latest.forEach(name -> desired.put(name, candidates.get(name).isEmpty() ? installed.get(name)
                : candidates.get(name)));
    }

    private static boolean fulfilled(Map<String, String> installed, String name, String version) {
        return installed.containsKey(name) && (version == null || version.equals(installed.get(name)));
    }

    /** Salt's _get_desired_pkg: {@code name=version}, or the name alone. */
    static String withVersion(String name, String version) {
        return version == null ? name : name + "=" + version;
    }

    static String installComment(List<String> modified, List<String> notModified, List<String> failed,
            java.util.function.Function<String, String> label) {
        List<String> comment = new ArrayList<>();
        if (!modified.isEmpty()) {
            String summary = String.join(", ", modified.stream().map(label).toList());
            comment.add(summary.length() < 20 ? "The following packages were installed/updated: " + summary
                    : modified.size() + " targeted package" + (modified.size() > 1 ? "s were" : " was")
                            + " installed/updated.");
        }
        if (!notModified.isEmpty()) {
            comment.add(notModified.size() <= 20 ? "The following packages were already installed: "
                    + String.join(", ", notModified.stream().map(label).toList())
                    : notModified.size() + " targeted packages were already installed");
        }
        if (!failed.isEmpty()) {
            comment.add(0, "The following packages failed to install/update: "
                    + String.join(", ", failed.stream().map(label).toList()));
        }
        return String.join("\n", comment);
    }

    /** Salt's changes of a package run: every package whose version differs, {@code {old, new}}. */
    static Map<String, Object> changes(Map<String, String> before, Map<String, String> after) {
        Map<String, Object> changes = new LinkedHashMap<>();
        Set<String> names = new TreeSet<>(before.keySet());
        names.addAll(after.keySet());
        for (String name : names) {
            String old = before.getOrDefault(name, "");
            String now = after.getOrDefault(name, "");
            if (!old.equals(now)) {
                changes.put(name, Map.of("old", old, "new", now));
            }
        }
        return changes;
    }

    StateResult latest(StateCall call) {
        call.allowOnly("pkg.latest", List.of("pkgs", "refresh"));
        List<String> desired = new ArrayList<>(PackageSources.desired(call).keySet());
        if (desired.isEmpty()) {
            return StateResult.ok("No packages to install provided");
        }
        try {
            if (call.flag("refresh", true)) {
                packages.refresh();
            }
        } catch (StatesException e) {
            return StateResult.failed("An error was encountered while checking the newest available version of "
                    + "package(s): " + e.getMessage());
        }
        Map<String, String> before = packages.installed();
        Map<String, String> candidates = packages.candidates(desired);
        Map<String, String> targets = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String name : desired) {
            String candidate = candidates.getOrDefault(name, "");
            if (candidate.isEmpty() && !before.containsKey(name)) {
                problems.add("No information found for '" + name + "'.");
            } else if (!candidate.isEmpty() && !candidate.equals(before.get(name))) {
                targets.put(name, candidate);
            }
        }
        if (!problems.isEmpty()) {
            return StateResult.failed(String.join(" ", problems));
        }
        if (targets.isEmpty()) {
            return StateResult.ok(desired.size() > 10 ? "All " + desired.size() + " packages are up-to-date."
                    : desired.size() > 1 ? "All packages are up-to-date (" + String.join(", ", new TreeSet<>(desired)) + ")."
                    : "Package " + desired.get(0) + " is already up-to-date");
        }
        List<String> upToDate = call.args().containsKey("pkgs")
                ? desired.stream().filter(n -> !targets.containsKey(n)).sorted().toList() : List.of();
        if (call.test()) {
            String comment = "The following packages would be installed/upgraded: "
                    + String.join(", ", new TreeSet<>(targets.keySet()));
            if (!upToDate.isEmpty()) {
                comment += "\nThe following packages are already up-to-date: " + String.join(", ",
                        upToDate.stream().map(n -> n + " (" + before.get(n) + ")").toList());
            }
            return new StateResult(null, Map.of(), comment);
        }
        try {
            packages.install(targets);
        } catch (StatesException e) {
            return StateResult.failed("An error was encountered while installing package(s): " + e.getMessage());
        }
        Map<String, Object> changes = changes(before, packages.installed());
        List<String> failed = targets.entrySet().stream()
                .filter(t -> !(changes.get(t.getKey()) instanceof Map<?, ?> c && t.getValue().equals(c.get("new"))))
                .map(Map.Entry::getKey).sorted().toList();
        List<String> comments = new ArrayList<>();
        if (!failed.isEmpty()) {
            comments.add("The following packages failed to update: " + String.join(", ", failed));
        }
        List<String> successful = targets.keySet().stream().filter(n -> !failed.contains(n)).sorted().toList();
        if (!successful.isEmpty()) {
            comments.add("The following packages were successfully installed/upgraded: " + String.join(", ", successful));
        }
        if (!upToDate.isEmpty()) {
            comments.add("The following packages were already up-to-date: " + String.join(", ", upToDate));
        }
        return new StateResult(failed.isEmpty(), changes, String.join(" ", comments));
    }

    /** Salt's _uninstall for pkg.removed and pkg.purged. */
    StateResult removed(StateCall call) {
        return uninstall(call, "remove");
    }

    StateResult purged(StateCall call) {
        return uninstall(call, "purge");
    }

    private StateResult uninstall(StateCall call, String action) {
        call.allowOnly("pkg." + action + "d", List.of("version", "pkgs"));
        Map<String, String> wanted = PackageSources.desired(call);
        Map<String, String> before = packages.installed();
        Set<String> remnants = action.equals("purge") ? packages.configRemnants() : Set.of();
        List<String> targets = wanted.entrySet().stream()
                .filter(e -> before.containsKey(e.getKey())
                        && (e.getValue() == null || e.getValue().equals(before.get(e.getKey())))
                        || remnants.contains(e.getKey()))
                .map(Map.Entry::getKey).sorted().toList();
        if (targets.isEmpty()) {
            boolean versioned = wanted.values().stream().anyMatch(Objects::nonNull);
            return StateResult.ok(action.equals("purge")
                    ? "None of the targeted packages are installed or partially installed"
                    : "All specified packages" + (versioned ? " (matching specified versions)" : "")
                            + " are already absent");
        }
        if (call.test()) {
            Map<String, Object> changes = new LinkedHashMap<>();
            targets.forEach(n -> changes.put(n, Map.of("new", action + "d", "old", "")));
            return StateResult.wouldChange(changes, "The following packages will be " + action + "d: "
                    + String.join(", ", targets) + ".");
        }
        try {
            if (action.equals("purge")) {
                packages.purge(targets);
            } else {
                packages.remove(targets);
            }
        } catch (StatesException e) {
            return new StateResult(false, changes(before, packages.installed()), "The following packages failed to "
                    + action + ": " + String.join(", ", targets) + ". " + e.getMessage());
        }
        Map<String, String> after = packages.installed();
        Set<String> leftRemnants = action.equals("purge") ? packages.configRemnants() : Set.of();
        List<String> failed = wanted.keySet().stream().filter(n -> after.containsKey(n) || leftRemnants.contains(n))
                .sorted().toList();
        Map<String, Object> changes = changes(before, after);
        if (!failed.isEmpty()) {
            return new StateResult(false, changes, "The following packages failed to " + action + ": "
                    + String.join(", ", failed) + ".");
        }
        List<String> notInstalled = wanted.keySet().stream().filter(n -> !targets.contains(n)).sorted().toList();
        String comment = notInstalled.isEmpty() ? "All targeted packages were " + action + "d."
                : "The following packages were not installed: " + String.join(", ", notInstalled)
                        + " The following packages were " + action + "d: " + String.join(", ", targets) + ".";
        return StateResult.changed(changes, comment);
    }
}
