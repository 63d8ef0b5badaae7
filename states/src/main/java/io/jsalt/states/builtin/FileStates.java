package io.jsalt.states.builtin;

import io.jsalt.modules.builtin.file.AtomicFileWriter;
import io.jsalt.modules.builtin.file.FileModes;
import io.jsalt.modules.builtin.file.UnifiedDiff;
import io.jsalt.states.StatesException;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Salt's {@code file} states: {@code managed}, {@code directory}, {@code absent}. */
public final class FileStates {
    private static final List<String> MANAGED_ARGS = List.of("source", "contents", "template", "mode", "makedirs",
            "context", "defaults", "saltenv", "show_changes");

    private FileStates() {
    }

    public static void register(StateFunctions functions) {
        functions.add("file.managed", FileStates::managed)
                .add("file.directory", FileStates::directory)
                .add("file.absent", FileStates::absent);
    }

    static StateResult managed(StateCall call) {
        call.allowOnly("file.managed", MANAGED_ARGS);
        Path path = absolute(call.name());
        if (call.args().containsKey("source") && call.args().containsKey("contents")) {
            return StateResult.failed("'source' cannot be used in combination with 'contents'");
        }
        byte[] wanted;
        try {
            wanted = desiredContent(call);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
        Integer mode = call.args().containsKey("mode") ? FileModes.parse(call.args().get("mode")) : null;
        try {
            if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                return StateResult.failed("Specified target " + path + " is a directory");
            }
            boolean exists = Files.exists(path, LinkOption.NOFOLLOW_LINKS);
            Map<String, Object> changes = new LinkedHashMap<>();
            byte[] before = exists ? Files.readAllBytes(path) : null;
            boolean contentDiffers = wanted != null
                    && (!exists || !Arrays.equals(before, wanted));
            if (contentDiffers) {
                changes.put("diff", !exists ? "New file"
                        : call.flag("show_changes", true) ? diff(before, wanted) : "<show_changes=False>");
            }
            if (!exists && wanted == null) {
                wanted = new byte[0]; // Salt: no source and no contents creates an empty file
                changes.put("diff", "New file");
            }
            if (mode != null && (!exists || FileModes.of(path, LinkOption.NOFOLLOW_LINKS) != mode)) {
                changes.put("mode", FileModes.format(mode));
            }
            if (changes.isEmpty()) {
                return StateResult.ok("File " + path + " is in the correct state");
            }
            if (call.test()) {
                Map<String, Object> predicted = exists ? changes : Map.of("newfile", path.toString());
                return StateResult.wouldChange(predicted, "The file " + path + " is set to be changed\nNote: No "
                        + "changes made, actual changes may\nbe different due to other states.");
            }
            Path parent = path.getParent();
            if (!Files.isDirectory(parent)) {
                if (!call.flag("makedirs", false)) {
                    return StateResult.failed("Parent directory not present");
                }
                Files.createDirectories(parent);
            }
            if (changes.containsKey("diff")) {
                AtomicFileWriter.write(path, wanted);
            }
            if (mode != null) {
                FileModes.apply(path, mode);
            }
            return StateResult.changed(changes, "File " + path + " updated");
        } catch (IOException e) {
            return StateResult.failed("Unable to manage file " + path + ": " + e);
        }
    }

    /** The bytes the file must hold, or null when neither source nor contents is given. */
    private static byte[] desiredContent(StateCall call) {
        byte[] raw;
        String source = call.string("source");
        if (source != null) {
            if (!source.startsWith("salt://")) {
                throw new StatesException("Source " + source + " is not supported: jsalt reads salt:// sources only");
            }
            String saltenv = call.args().containsKey("saltenv") ? call.string("saltenv") : call.context().saltenv();
            raw = call.files().read(StateFiles.pathOf(source), saltenv)
                    .orElseThrow(() -> new StatesException("Source file " + source + " not found in saltenv '"
                            + saltenv + "'"));
        } else if (call.args().containsKey("contents")) {
            Object contents = call.args().get("contents");
            String text = contents instanceof List<?> lines
                    ? String.join("\n", lines.stream().map(String::valueOf).toList())
                    : String.valueOf(contents);
            if (!text.endsWith("\n")) {
                text += "\n"; // Salt's contents_newline: True
            }
            raw = text.getBytes(StandardCharsets.UTF_8);
        } else {
            return null;
        }
        String template = call.string("template");
        if (template == null) {
            return raw;
        }
        if (!template.equals("jinja")) {
            throw new StatesException("Specified template format " + template + " is not supported (jinja is)");
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        putMap(extra, call.args().get("defaults"), "defaults");
        putMap(extra, call.args().get("context"), "context");
        String where = source != null ? StateFiles.pathOf(source) : call.name();
        String rendered = call.jinja().render(new String(raw, StandardCharsets.UTF_8),
                call.context().forFile(call.context().sls(), where), extra);
        return rendered.getBytes(StandardCharsets.UTF_8);
    }

    private static void putMap(Map<String, Object> into, Object value, String what) {
        if (value == null) {
            return;
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new StatesException("'" + what + "' must be a dictionary");
        }
        map.forEach((k, v) -> into.put(String.valueOf(k), v));
    }

    /** A text diff; bytes that are not UTF-8 text are not diffed (Salt says "Replace binary file" too). */
    private static String diff(byte[] before, byte[] wanted) {
        if (!isText(before) || !isText(wanted)) {
            return "Replace binary file";
        }
        return UnifiedDiff.of(new String(before, StandardCharsets.UTF_8), new String(wanted, StandardCharsets.UTF_8));
    }

    private static boolean isText(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            return false;
        }
        for (byte b : bytes) {
            if (b == 0) {
                return false;
            }
        }
        return true;
    }

    static StateResult directory(StateCall call) {
        call.allowOnly("file.directory", List.of("mode", "dir_mode", "makedirs"));
        Path path = absolute(call.name());
        Object modeArg = call.args().containsKey("dir_mode") ? call.args().get("dir_mode") : call.args().get("mode");
        Integer mode = modeArg == null ? null : FileModes.parse(modeArg);
        try {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                return StateResult.failed("Specified location " + path + " exists and is a file");
            }
            Map<String, Object> changes = new LinkedHashMap<>();
            boolean exists = Files.isDirectory(path);
            if (!exists) {
                changes.put(path.toString(), "New Dir");
            } else if (mode != null && FileModes.of(path) != mode) {
                changes.put("mode", FileModes.format(mode));
            }
            if (changes.isEmpty()) {
                return StateResult.ok("The directory " + path + " is in the correct state");
            }
            if (call.test()) {
                return StateResult.wouldChange(changes, "The following files will be changed:\n" + path + ": "
                        + (exists ? "mode - " + FileModes.format(mode) : "directory - new"));
            }
            if (!exists) {
                if (!Files.isDirectory(path.getParent()) && !call.flag("makedirs", false)) {
                    return StateResult.failed("No directory to create " + path + " in");
                }
                Files.createDirectories(path);
            }
            if (mode != null) {
                FileModes.apply(path, mode);
            }
            return StateResult.changed(changes, "Directory " + path + " updated");
        } catch (IOException e) {
            return StateResult.failed("Unable to manage directory " + path + ": " + e);
        }
    }

    static StateResult absent(StateCall call) {
        call.allowOnly("file.absent", List.of());
        Path path = absolute(call.name());
        if (path.getParent() == null) {
            return StateResult.failed("Refusing to make \"/\" absent");
        }
        boolean isDir = Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return StateResult.ok("File " + path + " is not present");
        }
        Map<String, Object> changes = Map.of("removed", path.toString());
        if (call.test()) {
            return StateResult.wouldChange(changes, (isDir ? "Directory " : "File ") + path + " is set for removal");
        }
        try {
            if (isDir) {
                try (Stream<Path> tree = Files.walk(path)) {
                    for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            } else {
                Files.delete(path);
            }
            return StateResult.changed(changes, "Removed " + (isDir ? "directory " : "file ") + path);
        } catch (IOException e) {
            return StateResult.failed("Unable to remove " + path + ": " + e);
        }
    }

    private static Path absolute(String name) {
        Path path = Path.of(name);
        if (!path.isAbsolute()) {
            throw new StatesException("Specified file " + name + " is not an absolute path");
        }
        return path.normalize();
    }
}
