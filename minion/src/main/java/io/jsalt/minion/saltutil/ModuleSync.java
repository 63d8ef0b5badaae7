package io.jsalt.minion.saltutil;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.MasterFiles;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Salt's {@code salt.utils.extmods.sync} for execution modules: the jars in {@code salt://_modules/} of the
 * given saltenvs (the first saltenv holding a name wins) are fetched through the master's file server and
 * copied into {@code extension_modules/modules/}; local jars no longer on the master are removed. The answer
 * names the new or changed ones as Salt does ({@code "modules.<name>"}).
 */
final class ModuleSync {
    private static final Pattern JAR = Pattern.compile("_modules/([A-Za-z0-9_][A-Za-z0-9._-]{0,127})\\.jar");

    private ModuleSync() {
    }

    /**
     * @param whitelist names to sync only (empty: all)
     * @param blacklist names never to sync
     */
    static List<String> sync(MasterFiles files, List<String> saltenvs, Path jarDir, Set<String> whitelist, Set<String> blacklist) {
        Map<String, String> wanted = new LinkedHashMap<>(); // name -> saltenv
        for (String saltenv : saltenvs) {
            for (String path : files.list("_modules", saltenv)) {
                Matcher m = JAR.matcher(path);
                if (m.matches() && (whitelist.isEmpty() || whitelist.contains(m.group(1))) && !blacklist.contains(m.group(1))) {
                    wanted.putIfAbsent(m.group(1), saltenv);
                }
            }
        }
        List<String> changed = new ArrayList<>();
        try {
            Files.createDirectories(jarDir);
            for (Map.Entry<String, String> entry : wanted.entrySet()) {
                String name = entry.getKey();
                Path cached = files.cache("salt://_modules/" + name + ".jar", entry.getValue());
                Path dest = jarDir.resolve(name + ".jar");
                if (!Files.isRegularFile(dest) || Files.mismatch(cached, dest) != -1) {
                    install(cached, dest);
                    changed.add("modules." + name);
                }
            }
            removeStale(jarDir, wanted.keySet(), whitelist, blacklist);
        } catch (IOException e) {
            throw new CommandExecutionException("cannot sync modules into " + jarDir + ": " + e);
        }
        changed.sort(null);
        return changed;
    }

    /** Salt's comma-separated saltenv argument; none means {@code base}. */
    static List<String> saltenvs(Object saltenv) {
        if (saltenv == null || saltenv.toString().isBlank()) {
            return List.of("base");
        }
        if (saltenv instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return Arrays.stream(saltenv.toString().split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** Salt's extmod_whitelist / extmod_blacklist for modules: a comma-separated string or a list of names. */
    static Set<String> names(Object value) {
        if (value == null) {
            return Set.of();
        }
        if (value instanceof Map<?, ?> byForm) {
            return names(byForm.get("modules"));
        }
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).collect(Collectors.toUnmodifiableSet());
        }
        return Arrays.stream(value.toString().split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    private static void install(Path from, Path dest) throws IOException {
        // copied beside the target, then moved: a reload running now sees the old jar or the new one, whole
        Path tmp = Files.createTempFile(dest.getParent(), "." + dest.getFileName(), ".part");
        try {
            Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING);
            try {
                Files.move(tmp, dest, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dest, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void removeStale(Path jarDir, Set<String> kept, Set<String> whitelist, Set<String> blacklist) throws IOException {
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(jarDir, "*.jar")) {
            for (Path jar : jars) {
                String file = jar.getFileName().toString();
                String name = file.substring(0, file.length() - ".jar".length());
                boolean inScope = (whitelist.isEmpty() || whitelist.contains(name)) && !blacklist.contains(name);
                if (inScope && !kept.contains(name)) {
                    Files.deleteIfExists(jar);
                }
            }
        }
    }
}
