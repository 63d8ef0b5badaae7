package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.states.StatesException;
import io.jsalt.states.compile.StateChunk;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Salt's {@code file.recurse}: a folder of the master's file server copied into {@code name}, each file through
 * {@code file.managed} (template, owner, group, {@code file_mode}, backup) and each folder through
 * {@code file.directory} ({@code dir_mode}); {@code clean} removes what the source does not have. Every path the
 * master lists is checked ({@link StateFiles#pathOf}) and must land inside {@code name}, also through links that
 * are already there, or the state fails before writing anything.
 */
public final class RecurseState {
    static final List<String> ARGS = List.of("source", "clean", "user", "group", "dir_mode", "file_mode", "template",
            "context", "defaults", "replace", "backup", "include_pat", "exclude_pat", "maxdepth", "saltenv");

    private RecurseState() {
    }

    /** What a recurse manages: destination file, its {@code salt://} path, and the folders to make. */
    record Plan(String saltenv, Map<Path, String> files, Set<Path> dirs) {
        Set<Path> keep() {
            return files.keySet();
        }
    }

    public static StateResult run(StateCall call) {
        if (call.args().containsKey("mode")) {
            return StateResult.failed("'mode' is not allowed in 'file.recurse'. Please use 'file_mode' and 'dir_mode'.");
        }
        call.allowOnly("file.recurse", ARGS);
        String name = call.name();
        Perms perms;
        try {
            perms = Perms.of(call.args().get("user"), call.args().get("group"), call.args().get("dir_mode"));
            Perms.of(null, null, call.args().get("file_mode"));
        } catch (CommandExecutionException e) {
            return StateResult.failed(e.getMessage());
        }
        String unavailable = call.test() ? null : perms.unavailable();
        if (unavailable != null) {
            return StateResult.failed(unavailable);
        }
        Path root = Path.of(name);
        if (!root.isAbsolute()) {
            return StateResult.failed("Specified file " + name + " is not an absolute path");
        }
        root = root.normalize();
        try {
            Plan plan;
            try {
                plan = plan(call, root, call.args());
            } catch (StatesException e) {
                return StateResult.failed(e.getMessage());
            }
            if (!Files.isDirectory(root)) {
                if (Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
                    return StateResult.failed("The path " + name + " exists and is not a directory");
                }
                if (!call.test()) {
                    Files.createDirectories(root.getParent());
                    FileWrites.makeDirs(root, perms);
                }
            }
            return apply(call, root, plan);
        } catch (IOException e) {
            return StateResult.failed("Unable to manage " + name + ": " + e);
        }
    }

    private static StateResult apply(StateCall call, Path root, Plan plan) throws IOException {
        Map<String, List<String>> comments = new LinkedHashMap<>();
        Map<String, Object> changes = new LinkedHashMap<>();
        Boolean[] result = {true};
        boolean clean = call.flag("clean", false);
        for (Path dir : plan.dirs()) {
            if (clean && Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
                if (call.test()) {
                    merge(dir, new StateResult(null, Map.of(), "Replacing " + dir + " with a directory"), result,
                            comments, changes);
                    continue;
                }
                Files.delete(dir);
                merge(dir, StateResult.changed(Map.of("diff", "Replaced file with a directory"), ""), result, comments,
                        changes);
            }
            Map<String, Object> args = new LinkedHashMap<>();
            copy(call, args, "user", "user");
            copy(call, args, "group", "group");
            copy(call, args, "dir_mode", "dir_mode");
            args.put("makedirs", true);
            merge(dir, DirectoryState.run(call.with(dir.toString(), args)), result, comments, changes);
        }
        for (Map.Entry<Path, String> file : plan.files().entrySet()) {
            Path dest = file.getKey();
            boolean replace = call.flag("replace", true);
            if (clean && Files.isDirectory(dest, LinkOption.NOFOLLOW_LINKS) && replace) {
                if (call.test()) {
                    merge(dest, new StateResult(null, Map.of(), "Replacing directory " + dest + " with a file"), result,
                            comments, changes);
                    continue;
                }
                io.jsalt.modules.builtin.file.DirectoryTree.delete(dest);
                merge(dest, StateResult.changed(Map.of("diff", "Replaced directory with a new file"), ""), result,
                        comments, changes);
            }
            Map<String, Object> args = new LinkedHashMap<>();
            args.put("source", "salt://" + file.getValue());
            args.put("saltenv", plan.saltenv());
            copy(call, args, "user", "user");
            copy(call, args, "group", "group");
            copy(call, args, "file_mode", "mode");
            copy(call, args, "template", "template");
            copy(call, args, "context", "context");
            copy(call, args, "defaults", "defaults");
            copy(call, args, "backup", "backup");
            args.put("makedirs", true);
            args.put("replace", replace);
            merge(dest, ManagedState.run(call.with(dest.toString(), args)), result, comments, changes);
        }
        if (clean) {
            Set<Path> keep = new java.util.HashSet<>(plan.keep());
            keep.addAll(Clean.keepOfRequired(root, call.required(), chunk -> keepOf(call, chunk)));
            List<String> removed = Clean.clean(root, keep, call.args().get("exclude_pat"), call.test());
            if (!removed.isEmpty()) {
                if (call.test()) {
                    if (Boolean.TRUE.equals(result[0])) {
                        result[0] = null;
                    }
                    comments.computeIfAbsent("removed", k -> new ArrayList<>()).addAll(removed);
                } else {
                    changes.put("removed", removed);
                }
            }
        }
        StringBuilder comment = new StringBuilder();
        comments.forEach((path, lines) -> comment.append(comment.length() > 0 ? "\n" : "").append("\n#### ").append(path)
                .append(" ####\n").append(String.join("\n", lines)));
        String text = comment.toString().strip();
        if (text.isEmpty()) {
            text = "Recursively updated " + root;
        }
        if (changes.isEmpty() && Boolean.TRUE.equals(result[0])) {
            text = "The directory " + root + " is in the correct state";
        }
        return new StateResult(result[0], changes, text);
    }

    /** Salt's merge_ret: a failure wins, a test-mode None stays unless something failed. */
    private static void merge(Path path, StateResult one, Boolean[] result, Map<String, List<String>> comments,
            Map<String, Object> changes) {
        if (Boolean.FALSE.equals(one.result()) || Boolean.TRUE.equals(result[0])) {
            result[0] = one.result();
        }
        if (!Boolean.TRUE.equals(one.result()) && one.comment() != null && !one.comment().isEmpty()) {
            comments.computeIfAbsent(path.toString(), k -> new ArrayList<>()).add(one.comment());
        }
        if (!one.changes().isEmpty()) {
            changes.put(path.toString(), one.changes());
        }
    }

    private static void copy(StateCall call, Map<String, Object> into, String from, String to) {
        if (call.args().get(from) != null) {
            into.put(to, call.args().get(from));
        }
    }

    /**
     * Salt's {@code _gen_recurse_managed_files}: the master's files under the source folder, filtered by
     * {@code include_pat}, {@code exclude_pat} and {@code maxdepth}, with their destinations under {@code root}.
     *
     * @throws StatesException with Salt's comment when the source is not a salt:// folder of the file server, or a
     *                         listed path is unsafe or would leave {@code root}
     */
    static Plan plan(StateCall call, Path root, Map<String, Object> args) throws IOException {
        Object sourceArg = args.get("source");
        if (sourceArg == null) {
            throw new StatesException("file.recurse() missing 1 required positional argument: 'source'");
        }
        List<String> sources = new ArrayList<>();
        (sourceArg instanceof List<?> l ? l : List.of(sourceArg)).forEach(s -> sources.add(String.valueOf(s)));
        for (String source : sources) {
            if (!source.startsWith("salt://")) {
                throw new StatesException("Invalid source '" + source + "' (must be a salt:// URI)");
            }
        }
        String saltenv = args.get("saltenv") != null ? String.valueOf(args.get("saltenv")) : call.context().saltenv();
        String srcpath = null;
        List<String> listed = List.of();
        for (String source : sources) {
            String path = StateFiles.pathOf(source.replaceAll("/+$", ""));
            List<String> under = call.files().list(path + "/", saltenv).stream().filter(f -> f.startsWith(path + "/"))
                    .toList();
            if (!under.isEmpty() || call.files().read(path, saltenv).isPresent()) {
                srcpath = path;
                listed = under;
                break;
            }
        }
        if (srcpath == null) {
            throw new StatesException("Recurse failed: none of the specified sources were found");
        }
        if (listed.isEmpty()) {
            throw new StatesException("The directory '" + srcpath + "' does not exist on the salt fileserver in saltenv '"
                    + saltenv + "'");
        }
        Integer maxdepth = args.get("maxdepth") == null ? null : Integer.valueOf(String.valueOf(args.get("maxdepth")));
        Map<Path, String> files = new TreeMap<>();
        Set<Path> dirs = new TreeSet<>();
        for (String fn : listed) {
            StateFiles.pathOf(fn); // the whole listed path, then the part under the source: no '..', '.', empty parts
            String relname = StateFiles.pathOf(fn.substring(srcpath.length() + 1));
            if (maxdepth != null && relname.chars().filter(c -> c == '/').count() > maxdepth) {
                continue;
            }
            if (!IncludeExclude.check(relname, args.get("include_pat"), args.get("exclude_pat"))) {
                continue;
            }
            Path dest = inside(root, relname);
            files.put(dest, fn);
            dirs.add(dest.getParent());
        }
        return new Plan(saltenv, files, dirs);
    }

    /** {@code root/relname}, refused when it, or a link already on the way, leads out of {@code root}. */
    private static Path inside(Path root, String relname) throws IOException {
        Path dest = root.resolve(relname).normalize();
        if (!dest.startsWith(root) || dest.equals(root)) {
            throw new StatesException("file.recurse: the file server listed '" + relname + "', which leaves " + root);
        }
        Path existing = dest;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing != null && Files.exists(root)) {
            Path real = Files.exists(existing) ? existing.toRealPath() : existing;
            if (!real.startsWith(root.toRealPath())) {
                throw new StatesException("file.recurse: " + dest + " would be written through a link that leaves " + root);
            }
        }
        return dest;
    }

    /** What a required {@code file.recurse} chunk manages, for the {@code clean} of a folder state that needs it. */
    static Set<Path> keepOf(StateCall call, StateChunk chunk) {
        try {
            return plan(call, Path.of(chunk.name()).toAbsolutePath().normalize(), chunk.args()).keep();
        } catch (IOException | RuntimeException e) {
            return Set.of(); // Salt would fail that recurse itself; its own state reports why
        }
    }
}
