package io.jsalt.states.exec;

import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.RunPillar;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.FunctionCatalog;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.MasterFiles;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.states.StatesException;
import io.jsalt.states.files.MasterStateFiles;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.render.JinjaRenderer;
import io.jsalt.states.render.RenderContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Salt's {@code cp} module over the master's file server (the minion's file client), with Salt's return values:
 * the destination path or {@code ""} when the master has no such file, {@code False} when the destination's
 * folder is missing and {@code makedirs} is not set. Sources are {@code salt://} paths only; a path with
 * {@code ..} or an absolute path is refused, and nothing a listing names may land outside {@code dest}.
 */
@SaltModule(name = "cp", doc = "Copy files from the master's file server to the minion (Salt's cp).")
public final class CpModule implements ExecutionModule {

    @SaltFunction(doc = "Copy salt://path to dest on the minion; '' when the master has no such file, False when dest's "
            + "folder is missing (makedirs=True creates it).\n\nCLI Example: salt '*' cp.get_file salt://motd /etc/motd")
    public Object get_file(@Arg("path") String path, @Arg("dest") String dest,
            @Arg(value = "saltenv", defaultValue = "base") String saltenv,
            @Arg(value = "makedirs", defaultValue = "false") boolean makedirs, ModuleContext context) {
        Optional<Path> cached = fetch(context.files(), path, saltenv);
        if (cached.isEmpty()) {
            return "";
        }
        return copy(Files::readAllBytes, cached.get(), destination(dest), makedirs);
    }

    @SaltFunction(doc = "Render salt://path with Jinja (grains, pillar, salt, and the keywords given) into dest; '' when "
            + "the master has no such file.\n\nCLI Example: salt '*' cp.get_template salt://motd.j2 /etc/motd")
    public Object get_template(@Arg("path") String path, @Arg("dest") String dest,
            @Arg(value = "template", defaultValue = "jinja") String template,
            @Arg(value = "saltenv", defaultValue = "base") String saltenv,
            @Arg(value = "makedirs", defaultValue = "false") boolean makedirs, @KwArgs Map<String, Object> kwargs,
            ModuleContext context, FunctionCatalog catalog, JobControl job) {
        if (!"jinja".equals(template)) {
            throw new CommandExecutionException("cp.get_template: template '" + template + "' is not available (jinja is)");
        }
        Optional<Path> cached = fetch(context.files(), path, saltenv);
        if (cached.isEmpty()) {
            return "";
        }
        if (!(catalog instanceof ModuleRegistry registry)) {
            throw new CommandExecutionException("cp.get_template needs the minion's module registry");
        }
        StateFiles files = new MasterStateFiles(context.files());
        String rel = StateFiles.pathOf(path);
        RenderContext render = new RenderContext(context.grains(), RunPillar.current().orElseGet(context::pillar), context.opts(), saltenv, "", rel,
                new RegistryCaller(registry, job));
        Map<String, Object> extra = new LinkedHashMap<>(kwargs);
        extra.keySet().removeIf(k -> k.startsWith("__"));
        return copy(file -> {
            try {
                return new JinjaRenderer(files).render(Files.readString(file), render, extra).getBytes(StandardCharsets.UTF_8);
            } catch (StatesException e) {
                throw new CommandExecutionException(e.getMessage());
            }
        }, cached.get(), destination(dest), makedirs);
    }

    @SaltFunction(doc = "Copy the folder salt://path (recursively) into dest/<its name>; the files copied.\n\n"
            + "CLI Example: salt '*' cp.get_dir salt://web /srv")
    public List<String> get_dir(@Arg("path") String path, @Arg("dest") String dest,
            @Arg(value = "saltenv", defaultValue = "base") String saltenv, ModuleContext context) {
        String prefix = relative(path);
        String base = prefix.contains("/") ? prefix.substring(prefix.lastIndexOf('/') + 1) : prefix;
        Path into = destination(dest).resolve(base);
        List<String> copied = new ArrayList<>();
        for (String file : context.files().list(prefix, saltenv)) {
            if (!file.startsWith(prefix + "/")) {
                continue; // 'web2/x' also starts with the prefix 'web'
            }
            Path target = into.resolve(relative("salt://" + file.substring(prefix.length() + 1))).normalize();
            if (!target.startsWith(into)) {
                throw new CommandExecutionException("cp.get_dir: the master listed '" + file + "', which leaves " + into);
            }
            Path cached = context.files().cache("salt://" + file, saltenv);
            if (copy(Files::readAllBytes, cached, target, true) instanceof String done) {
                copied.add(done);
            }
        }
        return copied;
    }

    @SaltFunction(doc = "Fetch salt://path into the minion's file cache; its local path, or False when the master has "
            + "no such file.\n\nCLI Example: salt '*' cp.cache_file salt://web/app.conf")
    public Object cache_file(@Arg("path") String path, @Arg(value = "saltenv", defaultValue = "base") String saltenv,
            ModuleContext context) {
        Optional<Path> cached = fetch(context.files(), path, saltenv);
        return cached.isPresent() ? (Object) cached.get().toString() : (Object) false;
    }

    @SaltFunction(doc = "The files of the master's file server in saltenv (under prefix).\n\n"
            + "CLI Example: salt '*' cp.list_master prefix=web")
    public List<String> list_master(@Arg(value = "saltenv", defaultValue = "base") String saltenv,
            @Arg(value = "prefix", defaultValue = "") String prefix, ModuleContext context) {
        return context.files().list(prefix, saltenv);
    }

    @SaltFunction(doc = "The master's hash of salt://path ({hash_type, hsum}), '' when it has no such file.\n\n"
            + "CLI Example: salt '*' cp.hash_file salt://web/app.conf")
    public Object hash_file(@Arg("path") String path, @Arg(value = "saltenv", defaultValue = "base") String saltenv,
            ModuleContext context) {
        relative(path);
        Optional<MasterFiles.FileHash> hash = context.files().hash(path, saltenv);
        if (hash.isEmpty()) {
            return "";
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("hash_type", hash.get().hashType());
        out.put("hsum", hash.get().hsum());
        return out;
    }

    /** The cached copy of salt://path; empty when the master has no such file. */
    private static Optional<Path> fetch(MasterFiles files, String path, String saltenv) {
        String rel = relative(path);
        if (!files.list(rel, saltenv).contains(rel)) {
            return Optional.empty();
        }
        return Optional.of(files.cache("salt://" + rel, saltenv));
    }

    /** The path of a {@code salt://} URL, checked; Salt refuses other sources with "Unsupported path". */
    private static String relative(String path) {
        if (path == null || !path.startsWith("salt://")) {
            throw new CommandExecutionException("Unsupported path: " + path + " (only salt:// sources are served)");
        }
        try {
            return StateFiles.pathOf(path);
        } catch (StatesException e) {
            throw new CommandExecutionException(e.getMessage());
        }
    }

    private static Path destination(String dest) {
        Path p = Path.of(dest);
        if (!p.isAbsolute()) {
            throw new CommandExecutionException("the destination must be an absolute path: " + dest);
        }
        return p.normalize();
    }

    private interface Content {
        byte[] of(Path cached) throws IOException;
    }

    /** Writes atomically; a missing folder without makedirs is Salt's False. A dest that is a folder gets the file's name. */
    private static Object copy(Content content, Path cached, Path dest, boolean makedirs) {
        Path target = Files.isDirectory(dest) ? dest.resolve(cached.getFileName()) : dest;
        try {
            if (!Files.isDirectory(target.getParent())) {
                if (!makedirs) {
                    return false;
                }
                Files.createDirectories(target.getParent());
            }
            byte[] bytes = content.of(cached);
            Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".part");
            try {
                Files.write(tmp, bytes);
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
            return target.toString();
        } catch (IOException e) {
            throw new CommandExecutionException("cannot write " + target + ": " + e.getMessage());
        }
    }
}
