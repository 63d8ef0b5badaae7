package io.jsalt.modules.builtin;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.cmd.CommandLine;
import io.jsalt.modules.builtin.cmd.CommandRequest;
import io.jsalt.modules.builtin.cmd.RunAs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's {@code cmd.script}: fetch a script from the master's file server (or take a local file), run a private
 * copy of it with arguments, and return {@code cmd.run_all}'s dict. Part of the {@code cmd} module.
 */
@SaltModule(name = "cmd")
public final class CmdScriptModule implements ExecutionModule {

    private static final Logger LOG = LoggerFactory.getLogger(CmdScriptModule.class);
    private static final String SALT_SCHEME = "salt://";

    @SaltFunction(doc = "Download a script from the master (source='salt://path', from saltenv) or take a local "
            + "absolute path, and run it with args (a string, split like a command line, or a list). Returns "
            + "cmd.run_all's dict {pid, retcode, stdout, stderr}; a source that cannot be fetched gives retcode 1 and "
            + "cache_error True. The script runs from a private copy (mode 0500 in a 0700 directory, owned by runas when given).\n\n"
            + "CLI Example: salt '*' cmd.script salt://scripts/runme.sh 'arg1 \"arg two\"' runas=nobody")
    public CallResult script(@Arg("source") String source,
                             @Arg(value = "args", defaultValue = Arg.NULL) Object args,
                             @Arg(value = "cwd", defaultValue = Arg.NULL) String cwd,
                             @Arg(value = "stdin", defaultValue = Arg.NULL) String stdin,
                             @Arg(value = "runas", defaultValue = Arg.NULL) String runas,
                             @Arg(value = "shell", defaultValue = Arg.NULL) String shell,
                             @Arg(value = "python_shell", defaultValue = Arg.NULL) Boolean pythonShell,
                             @Arg(value = "env", defaultValue = Arg.NULL) Object env,
                             @Arg(value = "output_loglevel", defaultValue = "debug") String outputLoglevel,
                             @Arg(value = "timeout", defaultValue = Arg.NULL) Double timeout,
                             @Arg(value = "saltenv", defaultValue = "base") String saltenv,
                             @Arg(value = "ignore_retcode", defaultValue = "false") boolean ignoreRetcode,
                             ModuleContext context, JobControl job) {
        Path original;
        try {
            original = fetch(source, saltenv, context);
        } catch (CommandExecutionException e) {
            // Salt's shape for a script that could not be cached, with the reason where Salt leaves stderr empty
            Map<String, Object> ret = CmdModule.runAllShape(0, 1, "", e.getMessage());
            ret.put("cache_error", true);
            return CallResult.failed(ret, 1);
        }
        if (runas != null && !runas.isEmpty()) {
            // before the copy: a minion that cannot switch users says so, rather than failing to chown
            RunAs.system().wrap(List.of("true"), runas);
        }
        Path copy = privateCopy(original, runas);
        try {
            String cmd = CommandLine.quote(copy.toString()) + arguments(args);
            CommandRequest request = new CommandRequest(cmd, cwd, stdin, runas, shell, pythonShell, env, timeout,
                    outputLoglevel, ignoreRetcode);
            return CmdModule.runAll(request, true, context, job);
        } finally {
            removeCopy(copy.getParent());
        }
    }

    private static Path fetch(String source, String saltenv, ModuleContext context) {
        if (source == null || source.isBlank()) {
            throw new CommandExecutionException("source is required");
        }
        if (source.startsWith(SALT_SCHEME)) {
            return context.files().cache(source, saltenv);
        }
        Path local = Path.of(source);
        if (local.isAbsolute() && Files.isRegularFile(local)) {
            return local;
        }
        throw new CommandExecutionException("Unable to cache the script '" + source + "': it is neither a salt:// "
                + "URL nor an existing absolute path");
    }

    /**
     * A copy only the runas user (or the minion) can read and run, so the script cannot change under us: a fresh
     * 0700 directory, the file created 0600 there (never replacing anything), then made 0500 and given to runas.
     * Nothing of it is readable by others at any moment.
     */
    private static Path privateCopy(Path original, String runas) {
        String name = original.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String suffix = dot > 0 ? name.substring(dot) : "";
        Path dir = null;
        try {
            dir = Files.createTempDirectory("jsalt-script-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path copy = dir.resolve("script" + suffix);
            try (InputStream in = Files.newInputStream(original);
                 OutputStream out = Channels.newOutputStream(Files.newByteChannel(copy,
                         EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                         PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))))) {
                in.transferTo(out);
            }
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("r-x------"));
            if (runas != null && !runas.isEmpty()) {
                long uid = RunAs.system().user(runas).uid();
                chown(copy, uid);
                chown(dir, uid);
            }
            return copy;
        } catch (IOException | RuntimeException e) {
            removeCopy(dir);
            if (e instanceof CommandExecutionException cee) {
                throw cee;
            }
            throw new CommandExecutionException("cannot copy the script " + original + ": " + e.getMessage(), e);
        }
    }

    private static void chown(Path path, long uid) throws IOException {
        if (((Number) Files.getAttribute(path, "unix:uid")).longValue() != uid) {
            Files.setAttribute(path, "unix:uid", (int) uid);
        }
    }

    /** Removes the private directory of a copy and the copy in it. */
    private static void removeCopy(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            LOG.warn("cannot remove the script copy in {}: {}", dir, e.toString());
        }
    }

    private static String arguments(Object args) {
        if (args == null) {
            return "";
        }
        if (args instanceof List<?> list) {
            return list.isEmpty() ? "" : " " + list.stream().map(a -> CommandLine.quote(String.valueOf(a)))
                    .collect(Collectors.joining(" "));
        }
        String text = String.valueOf(args);
        return text.isBlank() ? "" : " " + text;
    }
}
