package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's {@code cmd.script} state: a script from the master's file server ({@code source}, else the name), rendered
 * with Jinja when {@code template: jinja} (with {@code defaults} and {@code context}), run by the {@code cmd.script}
 * execution module with {@code args}. The state fetches (and renders) the script itself, into a private folder,
 * because the execution module knows no templates; the module then runs its own private copy of it.
 */
final class CmdScriptState {
    private static final Logger LOG = LoggerFactory.getLogger(CmdScriptState.class);
    private static final List<String> SCRIPT_ARGS;

    static {
        List<String> args = new ArrayList<>(CmdStates.COMMON_ARGS);
        args.addAll(List.of("source", "args", "template", "context", "defaults"));
        SCRIPT_ARGS = List.copyOf(args);
    }

    private CmdScriptState() {
    }

    static StateResult script(StateCall call) {
        call.allowOnly("cmd.script", SCRIPT_ARGS);
        Optional<StateResult> skipped = CmdConditions.skip(call);
        if (skipped.isPresent()) {
            return skipped.get();
        }
        String testName = CmdStates.testName(call);
        boolean stateful = testName != null || call.flag("stateful", false);
        String name = call.test() && testName != null ? testName : call.name();
        Optional<StateResult> invalid = CmdConditions.invalid(call, false).or(() -> notADict(call, "context"))
                .or(() -> notADict(call, "defaults"));
        if (invalid.isPresent()) {
            return invalid.get();
        }
        String source = call.args().get("source") == null ? name : call.string("source");
        Object args = call.args().get("args");
        if ((args == null || String.valueOf(args).isEmpty()) && name.split(" ").length > 1) {
            args = name.split(" ", 2)[1]; // Salt: "salt://run.sh a b" gives the script its arguments
        }
        if (call.test() && testName == null) {
            StateResult would = StateResult.wouldChange(Map.of(), "Command '" + name + "' would have been executed");
            return stateful ? StatefulOutput.reinterpret(would) : would;
        }
        invalid = CmdConditions.invalid(call, true);
        if (invalid.isPresent()) {
            return invalid.get();
        }
        String saltenv = call.context().saltenv();
        Optional<String> text = fetch(call, source, saltenv);
        if (text.isEmpty()) {
            Map<String, Object> ret = new LinkedHashMap<>();
            ret.put("pid", 0);
            ret.put("retcode", 1);
            ret.put("stdout", "");
            ret.put("stderr", "");
            ret.put("cache_error", true);
            return new StateResult(false, ret, "Unable to cache script " + source + " from saltenv '" + saltenv + "'");
        }
        Map<String, Object> result;
        try {
            result = runScript(call, source, text.get(), args, saltenv);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
        Map<String, Object> changes = CmdConditions.judged(call, result);
        StateResult ran = new StateResult(CmdConditions.succeeded(changes), changes, "Command '" + name + "' run");
        return CmdStates.finish(call, ran, stateful);
    }

    private static Optional<StateResult> notADict(StateCall call, String key) {
        Object value = call.args().get(key);
        boolean bad = value != null && !(value instanceof Map<?, ?>) && !String.valueOf(value).isEmpty();
        return bad ? Optional.of(StateResult.failed("Invalidly-formatted '" + key
                + "' parameter. Must be formed as a dict.")) : Optional.empty();
    }

    /** The script's text, rendered when asked; empty when the file server (or the local path) has no such file. */
    private static Optional<String> fetch(StateCall call, String source, String saltenv) {
        byte[] raw;
        String where;
        if (source.startsWith("salt://")) {
            where = StateFiles.pathOf(source);
            Optional<byte[]> read = call.files().read(where, saltenv);
            if (read.isEmpty()) {
                return Optional.empty();
            }
            raw = read.get();
        } else {
            Path local = Path.of(source);
            if (!local.isAbsolute() || !Files.isRegularFile(local)) {
                return Optional.empty();
            }
            where = source;
            try {
                raw = Files.readAllBytes(local);
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        String text = new String(raw, StandardCharsets.UTF_8);
        String template = call.string("template");
        if (template == null || template.isEmpty()) {
            return Optional.of(text);
        }
        if (!template.equals("jinja")) {
            throw new StatesException("Specified template format " + template + " is not supported (jinja is)");
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        if (call.args().get("defaults") instanceof Map<?, ?> defaults) {
            extra.putAll(CmdStates.stringKeys(defaults));
        }
        if (call.args().get("context") instanceof Map<?, ?> context) {
            extra.putAll(CmdStates.stringKeys(context));
        }
        return Optional.of(call.jinja().render(text, call.context().forFile(call.context().sls(), where), extra));
    }

    /** Writes the script into a fresh 0700 folder (the file 0600) and lets the execution module run a copy of it. */
    private static Map<String, Object> runScript(StateCall call, String source, String text, Object args,
            String saltenv) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("jsalt-script-src-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            String base = source.substring(source.lastIndexOf('/') + 1).split(" ", 2)[0];
            Path file = dir.resolve(base.isEmpty() || base.startsWith(".") ? "script" + base : base);
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            Map<String, Object> kwargs = CmdConditions.options(call, call.string("cwd"));
            if (args != null) {
                kwargs.put("args", args);
            }
            kwargs.put("saltenv", saltenv);
            Object out = call.salt().call("cmd.script", List.of(file.toString()), kwargs);
            if (!(out instanceof Map<?, ?> map)) {
                throw new StatesException("cmd.script returned " + out);
            }
            return CmdStates.stringKeys(map);
        } catch (IOException e) {
            throw new StatesException("cannot write the script " + source + ": " + e.getMessage());
        } finally {
            remove(dir);
        }
    }

    private static void remove(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            LOG.warn("cannot remove the script folder {}: {}", dir, e.toString());
        }
    }
}
