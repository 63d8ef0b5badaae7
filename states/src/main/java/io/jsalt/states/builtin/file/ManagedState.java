package io.jsalt.states.builtin.file;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.file.AtomicFileWriter;
import io.jsalt.modules.builtin.file.FileModes;
import io.jsalt.states.StatesException;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Salt's {@code file.managed} (salt/states/file.py with salt/modules/file.py's {@code check_managed_changes} in test
 * mode and {@code manage_file} otherwise): the file's content from a source or {@code contents}, optionally rendered
 * with Jinja, then its owner, group and mode; changes, comments and test-mode predictions are Salt 3006.8's.
 */
public final class ManagedState {
    static final List<String> ARGS = List.of("source", "source_hash", "source_hash_name", "skip_verify", "contents",
            "contents_pillar", "contents_grains", "contents_delimiter", "contents_newline", "allow_empty", "template",
            "mode", "makedirs", "dir_mode", "context", "defaults", "saltenv", "show_changes", "user", "group", "backup",
            "replace", "create");
    private static final String TEST_NOTE = "\nNote: No changes made, actual changes may\nbe different due to other states.";

    private ManagedState() {
    }

    public static StateResult run(StateCall call) {
        call.allowOnly("file.managed", ARGS);
        String name = call.name();
        Object source = call.args().get("source");
        boolean hasSource = source != null && !"".equals(source) && !(source instanceof List<?> l && l.isEmpty());
        Object contentsArg = call.args().get("contents");
        long contentsCount = Stream.of("contents", "contents_pillar", "contents_grains")
                .filter(k -> call.args().get(k) != null).count();
        if (hasSource && contentsCount > 0) {
            return StateResult.failed("'source' cannot be used in combination with 'contents', 'contents_pillar', or "
                    + "'contents_grains'");
        }
        if (contentsCount > 1) {
            return StateResult.failed("Only one of 'contents', 'contents_pillar', and 'contents_grains' is permitted");
        }
        try {
            contentsArg = ContentsLookup.contents(call);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
        Perms perms;
        try {
            perms = Perms.of(call.args().get("user"), call.args().get("group"), call.args().get("mode"));
        } catch (CommandExecutionException e) {
            return StateResult.failed(e.getMessage());
        }
        // Salt: without a source or contents there is nothing to replace the file with
        boolean replace = (hasSource || contentsArg != null) && call.flag("replace", true);
        Path path = Path.of(name);
        if (!call.flag("create", true) && !Files.isRegularFile(path)) {
            return StateResult.ok("File " + name + " is not present and is not set for creation");
        }
        String unavailable = call.test() ? null : perms.unavailable();
        if (unavailable != null) {
            return StateResult.failed(unavailable);
        }
        if (!path.isAbsolute()) {
            return StateResult.failed("Specified file " + name + " is not an absolute path");
        }
        path = path.normalize();
        if (Files.isDirectory(path)) {
            return StateResult.failed("Specified target " + name + " is a directory");
        }
        if (call.args().get("context") != null && !(call.args().get("context") instanceof Map)) {
            return StateResult.failed("Context must be formed as a dict");
        }
        if (call.args().get("defaults") != null && !(call.args().get("defaults") instanceof Map)) {
            return StateResult.failed("Defaults must be formed as a dict");
        }
        try {
            if (!replace && Files.exists(path)) {
                return permissionsOnly(call, path, perms);
            }
            Wanted wanted;
            try {
                wanted = wanted(call, hasSource ? source : null, contentsArg);
            } catch (StatesException | CommandExecutionException e) {
                return StateResult.failed(e.getMessage());
            }
            return call.test() ? predict(call, path, perms, wanted) : apply(call, path, perms, wanted);
        } catch (IOException e) {
            return StateResult.failed("Unable to manage file: " + e);
        }
    }

    /** The content a state asks for: from a source ({@code source} set), from contents, or none (null bytes). */
    record Wanted(byte[] bytes, ManagedSource source, boolean templated) {
        boolean fromSource() {
            return source != null;
        }

        /** The declared hash the file is compared with: a minion-local source's, unless a template changed it. */
        SourceHash declared() {
            return fromSource() && !templated ? source.declared() : null;
        }
    }

    static Wanted wanted(StateCall call, Object source, Object contents) {
        String saltenv = call.args().containsKey("saltenv") ? call.string("saltenv") : call.context().saltenv();
        String template = call.string("template");
        if (source != null) {
            ManagedSource resolved = ManagedSource.resolve(call, source, saltenv);
            byte[] bytes = template == null ? resolved.bytes()
                    : render(call, template, new String(resolved.bytes(), StandardCharsets.UTF_8),
                            SourceHash.scheme(resolved.url()).equals("salt") ? StateFiles.pathOf(resolved.url()) : call.name());
            return new Wanted(bytes, resolved, template != null);
        }
        if (contents == null) {
            return new Wanted(null, null, false);
        }
        String text = contentsText(contents);
        if (!call.flag("contents_newline", true)) {
            text = text.replaceAll("[\r\n]+$", ""); // Salt's rstrip of the last new line
        }
        if (template != null) {
            text = new String(render(call, template, text, call.name()), StandardCharsets.UTF_8);
        }
        return new Wanted(text.getBytes(StandardCharsets.UTF_8), null, template != null);
    }

    /** Salt's contents: each line of each part, ended by a new line (its {@code contents_newline: True}). */
    static String contentsText(Object contents) {
        List<?> parts = contents instanceof List<?> list ? list : List.of(contents);
        StringBuilder text = new StringBuilder();
        for (Object part : parts) {
            for (String line : AppendState.lines(String.valueOf(part))) {
                text.append(line).append('\n');
            }
        }
        return text.toString();
    }

    private static byte[] render(StateCall call, String template, String text, String where) {
        if (!template.equals("jinja")) {
            throw new StatesException("Specified template format " + template + " is not supported");
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        putMap(extra, call.args().get("defaults"));
        putMap(extra, call.args().get("context"));
        try {
            return call.jinja().render(text, call.context().forFile(call.context().sls(), where), extra)
                    .getBytes(StandardCharsets.UTF_8);
        } catch (StatesException e) {
            // Salt's manage_file reports a template that does not render as it reports any failure to get the file
            throw call.test() ? e : new StatesException("Unable to manage file: " + e.getMessage(), e);
        }
    }

    private static void putMap(Map<String, Object> into, Object value) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> into.put(String.valueOf(k), v));
        }
    }

    /** {@code replace: False} on an existing file: only owner, group and mode (Salt's check_perms branch). */
    private static StateResult permissionsOnly(StateCall call, Path path, Perms perms) throws IOException {
        Map<String, Object> changes = new LinkedHashMap<>();
        int before = FileModes.of(path);
        List<String> errors = perms.apply(path, true, call.test(), changes);
        String name = call.name();
        if (call.test()) {
            String comment = perms.mode() != null && perms.mode() != before
                    ? "File " + name + " will be updated with permissions " + FileModes.format(perms.mode())
                            + " from its current state of " + FileModes.format(before)
                    : "File " + name + " not updated";
            return new StateResult(changes.isEmpty() ? Boolean.TRUE : null, changes, comment);
        }
        if (changes.isEmpty() && errors.isEmpty()) {
            return StateResult.ok("File " + name + " exists with proper permissions. No changes made.");
        }
        return new StateResult(errors.isEmpty(), changes, String.join("; ", errors));
    }

    /** Test mode: Salt's check_file_meta. */
    private static StateResult predict(StateCall call, Path path, Perms perms, Wanted wanted) throws IOException {
        Map<String, Object> changes = new LinkedHashMap<>();
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            changes.put("newfile", call.name());
        } else {
            byte[] current = Files.readAllBytes(path);
            if (wanted.bytes() != null && differs(current, wanted)) {
                changes.put("diff", call.flag("show_changes", true) ? FileDiff.of(current, wanted.bytes())
                        : "<show_changes=False>");
            }
            perms.predict(path, true, changes);
        }
        if (changes.isEmpty()) {
            return StateResult.ok("The file " + call.name() + " is in the correct state");
        }
        return StateResult.wouldChange(changes, "The file " + call.name() + " is set to be changed" + TEST_NOTE);
    }

    /**
     * Whether the file must be rewritten: its bytes differ, or, for a minion-local source with a {@code source_hash},
     * its hash is not the declared one (Salt compares the file with the declared hash, not with the source).
     */
    private static boolean differs(byte[] current, Wanted wanted) {
        SourceHash declared = wanted.declared();
        if (declared != null) {
            return !declared.hsum().equals(declared.of(current));
        }
        return !Arrays.equals(current, wanted.bytes());
    }

    private static StateResult apply(StateCall call, Path path, Perms perms, Wanted wanted) throws IOException {
        String name = call.name();
        Map<String, Object> changes = new LinkedHashMap<>();
        String comment = "";
        if (Files.isRegularFile(path) || Files.isSymbolicLink(path)) {
            Path real = Files.isSymbolicLink(path) && Files.exists(path) ? path.toRealPath() : path;
            if (wanted.bytes() != null) {
                byte[] current = Files.readAllBytes(real);
                if (differs(current, wanted)) {
                    String mismatch = mismatch(wanted, wanted.source() == null ? null : wanted.source().url(), true);
                    if (mismatch != null) {
                        return StateResult.failed(mismatch);
                    }
                    changes.put("diff", call.flag("show_changes", true) ? FileDiff.of(current, wanted.bytes())
                            : "<show_changes=False>");
                    backup(call, real);
                    AtomicFileWriter.write(real, wanted.bytes());
                }
            }
            List<String> errors = perms.apply(path, true, false, changes);
            if (!changes.isEmpty()) {
                return new StateResult(errors.isEmpty(), changes, "File " + name + " updated");
            }
            return errors.isEmpty() ? StateResult.ok("File " + name + " is in the correct state")
                    : StateResult.failed(String.join("; ", errors));
        }
        if (wanted.fromSource()) {
            String mismatch = mismatch(wanted, name, false);
            if (mismatch != null) {
                return StateResult.failed(mismatch);
            }
        }
        Path parent = path.getParent();
        if (!Files.isDirectory(parent)) {
            if (!call.flag("makedirs", false)) {
                return StateResult.failed("Parent directory not present");
            }
            FileWrites.makeDirs(parent, new Perms(perms.user(), perms.group(), dirMode(call, perms.mode())));
        }
        int umask = FileWrites.umask();
        int created;
        if (wanted.fromSource()) {
            changes.put("diff", "New file");
            created = 0600; // Salt copies a source through mkstemp, which makes it 0600
        } else {
            created = perms.mode() != null ? 0600 : FileWrites.newFileMode(umask); // Salt's umask 077 while a mode is due
            if (wanted.bytes() == null) {
                changes.put("new", "file " + name + " created");
                comment = "Empty file";
            } else {
                changes.put("diff", "New file");
            }
        }
        FileWrites.write(path, wanted.bytes() == null ? new byte[0] : wanted.bytes(), created);
        Perms finalPerms = perms.mode() != null ? perms : perms.withMode(FileWrites.newFileMode(umask));
        List<String> errors = finalPerms.apply(path, true, false, changes);
        if (!errors.isEmpty()) {
            comment = String.join("; ", errors);
        }
        return new StateResult(errors.isEmpty(), changes, comment.isEmpty() ? "File " + name + " updated" : comment);
    }

    /** Salt's check of a minion-local source against its declared {@code source_hash}; null when it holds. */
    private static String mismatch(Wanted wanted, String what, boolean existing) {
        if (!wanted.fromSource() || !wanted.source().verified()) {
            return null;
        }
        SourceHash declared = wanted.source().declared();
        String actual = declared.of(wanted.source().bytes());
        if (actual.equals(declared.hsum())) {
            return null;
        }
        return "Specified " + declared.type() + " checksum for " + what + " (" + declared.hsum() + ") does not match "
                + "actual checksum (" + actual + ")" + (existing ? ". If the 'source_hash' value refers to a remote file "
                + "with multiple possible matches, then it may be necessary to set 'source_hash_name'." : "");
    }

    /** Salt's dir_mode for folders made by makedirs: given, or the file's mode with x added where r or w is. */
    static Integer dirMode(StateCall call, Integer mode) {
        Object dirMode = call.args().get("dir_mode");
        if (dirMode != null) {
            return FileModes.parse(dirMode);
        }
        if (mode == null) {
            return null;
        }
        int derived = 0;
        for (int shift = 0; shift < 9; shift += 3) {
            int digit = (mode >> shift) & 7;
            derived |= (digit == 0 ? 0 : digit | 1) << shift;
        }
        return derived;
    }

    private static void backup(StateCall call, Path file) throws IOException {
        String mode = call.string("backup");
        Object cachedir = call.context().opts().get("cachedir");
        if (("minion".equals(mode) || "both".equals(mode)) && cachedir != null) {
            java.time.Instant now = java.time.Instant.now();
            FileWrites.backup(file, Path.of(String.valueOf(cachedir)),
                    java.time.LocalDateTime.ofInstant(now, java.time.ZoneId.systemDefault()),
                    now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000);
        }
    }
}
