package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.builtin.pkg.PackageManager;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The packages a pkg state names ({@code name} and {@code version}, or {@code pkgs}), and {@code pkg.installed}
 * with {@code sources}: package files from the master ({@code salt://}) or from this machine (an absolute path
 * or {@code file://}), installed when their package is missing or at another version.
 */
final class PackageSources {
    private final StateCall call;
    private final PackageManager packages;

    PackageSources(StateCall call, PackageManager packages) {
        this.call = call;
        this.packages = packages;
    }

    /** name to version (null: any); {@code pkgs} entries are names or one-key {@code {name: version}} maps. */
    static Map<String, String> desired(StateCall call) {
        Map<String, String> desired = new LinkedHashMap<>();
        Object pkgs = call.args().get("pkgs");
        if (pkgs == null) {
            desired.put(call.name(), version(call.name(), call.string("version")));
            return desired;
        }
        if (!(pkgs instanceof List<?> list)) {
            throw new StatesException("Invalidly formatted \"pkgs\" parameter: a list is expected");
        }
        for (Object item : list) {
            if (item instanceof Map<?, ?> map && map.size() == 1) {
                Map.Entry<?, ?> e = map.entrySet().iterator().next();
                String name = String.valueOf(e.getKey());
                desired.put(name, version(name, e.getValue() == null ? null : String.valueOf(e.getValue())));
            } else if (item instanceof String name) {
                desired.put(name, null);
            } else {
                throw new StatesException("Invalidly formatted \"pkgs\" parameter: " + item);
            }
        }
        return desired;
    }

    private static String version(String name, String version) {
        if (version == null || version.isEmpty()) {
            return null;
        }
        if (version.startsWith("<") || version.startsWith(">") || version.startsWith("=")) {
            throw new StatesException("Version comparisons ('" + version + "' for " + name
                    + ") are not supported by jsalt yet: give the exact version or 'latest'");
        }
        return version;
    }

    StateResult install() {
        if (!(call.args().get("sources") instanceof List<?> sources) || sources.isEmpty()) {
            return StateResult.failed("Invalidly formatted 'sources' parameter: a list of {name: source} is expected");
        }
        Path cache;
        try {
            cache = Files.createTempDirectory("jsalt-pkg-sources");
        } catch (IOException e) {
            return StateResult.failed("Unable to cache the package sources: " + e);
        }
        try {
            return install(sources, cache);
        } finally {
            removeTree(cache);
        }
    }

    private StateResult install(List<?> sources, Path cache) {
        Map<String, Path> files = new LinkedHashMap<>();
        Map<String, String> versions = new LinkedHashMap<>();
        for (Object item : sources) {
            if (!(item instanceof Map<?, ?> map) || map.size() != 1) {
                return StateResult.failed("Invalidly formatted 'sources' parameter: " + item);
            }
            Map.Entry<?, ?> e = map.entrySet().iterator().next();
            String name = String.valueOf(e.getKey());
            Path file;
            try {
                file = fetch(String.valueOf(e.getValue()), cache.resolve(files.size() + ".deb"));
            } catch (StatesException ex) {
                return StateResult.failed(ex.getMessage());
            }
            Map.Entry<String, String> inside = packages.describeFile(file);
            if (!inside.getKey().equals(name)) {
                return StateResult.failed("Package file " + e.getValue() + " holds package " + inside.getKey()
                        + ", not " + name);
            }
            files.put(name, file);
            versions.put(name, inside.getValue());
        }
        Map<String, String> before = packages.installed();
        List<String> targets = new ArrayList<>();
        versions.forEach((name, version) -> {
            if (!version.equals(before.get(name))) {
                targets.add(name);
            }
        });
        if (targets.isEmpty()) {
            return StateResult.ok("All specified packages are already installed");
        }
        if (call.test()) {
            Map<String, Object> changes = new LinkedHashMap<>();
            targets.forEach(n -> changes.put(n, Map.of("new", "installed", "old", "")));
            return StateResult.wouldChange(changes, "The following packages would be installed/updated: "
                    + String.join(", ", targets));
        }
        try {
            packages.installFiles(targets.stream().map(files::get).toList());
        } catch (StatesException e) {
            return new StateResult(false, PkgStates.changes(before, packages.installed()),
                    "An error was encountered while installing package(s): " + e.getMessage());
        }
        Map<String, String> after = packages.installed();
        Map<String, Object> changes = PkgStates.changes(before, after);
        List<String> modified = targets.stream().filter(changes::containsKey).toList();
        List<String> notModified = versions.keySet().stream().filter(n -> !targets.contains(n)).toList();
        List<String> failed = targets.stream().filter(n -> !modified.contains(n)).toList();
        return new StateResult(failed.isEmpty(), changes,
                PkgStates.installComment(modified, notModified, failed, n -> n));
    }

    /** A source as a local file: salt:// through the file server, a local path or file:// as it is. */
    private Path fetch(String source, Path into) {
        if (source.startsWith("salt://")) {
            String saltenv = call.context().saltenv();
            byte[] bytes = call.files().read(StateFiles.pathOf(source), saltenv).orElseThrow(() ->
                    new StatesException("Source file " + source + " not found in saltenv '" + saltenv + "'"));
            try {
                return Files.write(into, bytes);
            } catch (IOException e) {
                throw new StatesException("Unable to cache " + source + ": " + e);
            }
        }
        String local = source.startsWith("file://") ? source.substring("file://".length()) : source;
        if (!local.startsWith("/")) {
            throw new StatesException("Source " + source + " is not supported: salt://, file:// and absolute paths are");
        }
        if (!Files.isRegularFile(Path.of(local))) {
            throw new StatesException("Source file " + source + " not found");
        }
        return Path.of(local);
    }

    private static void removeTree(Path dir) {
        try (Stream<Path> tree = Files.walk(dir)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary folder left behind is harmless; the state's outcome does not depend on it
        }
    }
}
