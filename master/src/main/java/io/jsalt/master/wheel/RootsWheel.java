package io.jsalt.master.wheel;

import static io.jsalt.master.runner.Parameter.optional;
import static io.jsalt.master.runner.Parameter.required;

import io.jsalt.master.files.SafePath;
import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.master.runner.RunnerException;
import io.jsalt.master.runner.RunnerFunction;
import io.jsalt.master.runner.RunnerModule;
import io.jsalt.master.runner.RunnerSignature;
import io.jsalt.transport.message.UnsafePathException;
import io.jsalt.transport.message.WirePath;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's wheel modules {@code file_roots} and {@code pillar_roots} (one instance each, over that setting):
 * {@code find}, {@code list_env}, {@code list_roots}, {@code read} and {@code write}, with Salt's arguments
 * and answers. Every path from a caller is joined to a root through {@link SafePath}: a path that is absolute,
 * climbs with {@code ..}, or leads outside the root through a symlink finds nothing ({@code find}, {@code read})
 * or is not written ({@code write}, answered with Salt's words for an invalid path). Unlike Salt's
 * {@code pillar_roots}, which joins without that check, both modules hold their paths to their roots.
 */
public final class RootsWheel implements RunnerModule {
    /** The largest file {@code read} hands back: the answer travels in one reply. */
    static final long MAX_READ_BYTES = 16L * 1024 * 1024;
    private static final Logger log = LoggerFactory.getLogger(RootsWheel.class);
    private static final int TEXT_SNIFF = 512;

    private final String module;
    private final Supplier<Map<String, List<Path>>> roots;

    /**
     * @param module {@code file_roots} or {@code pillar_roots}
     * @param roots  that setting now (it follows a reload of the config)
     */
    public RootsWheel(String module, Supplier<Map<String, List<Path>>> roots) {
        this.module = module;
        this.roots = roots;
    }

    @Override
    public List<RunnerFunction> functions() {
        var path = required("path", Type.STRING);
        var saltenv = optional("saltenv", Type.STRING, "base");
        return List.of(
                new RunnerFunction(RunnerSignature.of(module + ".find", path, saltenv),
                        "Return [{full path: 'txt' or 'bin'}] of the roots of saltenv that hold path.",
                        a -> find(a.string("path"), a.string("saltenv"))),
                new RunnerFunction(RunnerSignature.of(module + ".list_env", saltenv),
                        "Return {root: {name: 'f' or {...}}}, every file of the roots of saltenv.",
                        a -> listEnv(a.string("saltenv"))),
                new RunnerFunction(RunnerSignature.of(module + ".list_roots"),
                        "Return {saltenv: [list_env(saltenv)]} for every saltenv.", a -> listRoots()),
                new RunnerFunction(RunnerSignature.of(module + ".read", path, saltenv),
                        "Return [{full path: text}] of path in each root of saltenv that holds it as text.",
                        a -> read(a.string("path"), a.string("saltenv"))),
                new RunnerFunction(RunnerSignature.of(module + ".write", required("data", Type.STRING), path, saltenv,
                        optional("index", Type.INTEGER, 0)),
                        "Write data to path in the index-th root of saltenv (the first by default).",
                        a -> write(a.string("data"), a.string("path"), a.string("saltenv"), a.integer("index"))));
    }

    List<Map<String, Object>> find(String path, String saltenv) {
        List<Map<String, Object>> found = new ArrayList<>();
        for (Path root : roots.get().getOrDefault(saltenv, List.of())) {
            locate(root, path).ifPresent(file -> found.add(Map.of(shown(root, path), isText(file) ? "txt" : "bin")));
        }
        return found;
    }

    Map<String, Object> listEnv(String saltenv) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Path root : roots.get().getOrDefault(saltenv, List.of())) {
            out.put(root.toString(), RootTree.of(root));
        }
        return out;
    }

    Map<String, Object> listRoots() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String saltenv : roots.get().keySet()) {
            out.put(saltenv, List.of(listEnv(saltenv)));
        }
        return out;
    }

    List<Map<String, Object>> read(String path, String saltenv) {
        List<Map<String, Object>> found = new ArrayList<>();
        for (Path root : roots.get().getOrDefault(saltenv, List.of())) {
            Optional<Path> file = locate(root, path);
            if (file.isEmpty() || !isText(file.get())) {
                continue;
            }
            try {
                if (Files.size(file.get()) > MAX_READ_BYTES) {
                    throw new RunnerException(shown(root, path) + " is larger than " + MAX_READ_BYTES + " bytes: too large to read");
                }
                found.add(Map.of(shown(root, path), new String(Files.readAllBytes(file.get()), StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new RunnerException("cannot read " + shown(root, path) + ": " + e.getMessage());
            }
        }
        return found;
    }

    /** Salt's answers, words included: a string saying what was written, or why not. */
    String write(String data, String path, String saltenv, int index) {
        List<Path> envRoots = roots.get().get(saltenv);
        if (envRoots == null) {
            return "Named environment " + saltenv + " is not present";
        }
        if (index < 0 || envRoots.size() <= index) {
            return "Specified index " + index + " in environment " + saltenv + " is not present";
        }
        if (path.startsWith("/")) {
            return "The path passed in " + path + " is not relative to the environment " + saltenv;
        }
        Path root = envRoots.get(index);
        Path target;
        try {
            target = SafePath.writable(root, path);
        } catch (UnsafePathException e) {
            log.warn("{}.write refused {}: {}", module, WirePath.shown(path), e.getMessage());
            return module.equals("pillar_roots") ? "Invalid path" : "Invalid path: " + path; // each module's own words
        } catch (IOException e) {
            throw new RunnerException("cannot create the folders of " + shown(root, path) + ": " + e.getMessage());
        }
        try (OutputStream out = Files.newOutputStream(target, LinkOption.NOFOLLOW_LINKS, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            out.write(data.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new RunnerException("cannot write " + shown(root, path) + ": " + e.getMessage());
        }
        log.info("{}.write wrote {} bytes to {}", module, data.length(), target);
        return "Wrote data to file " + shown(root, path);
    }

    /** The regular file {@code path} names in {@code root}, or empty (also for a path that is not safe). */
    private Optional<Path> locate(Path root, String path) {
        try {
            return SafePath.join(root, path);
        } catch (UnsafePathException e) {
            log.warn("{}: path {} refused: {}", module, WirePath.shown(path), e.getMessage());
            return Optional.empty();
        }
    }

    /** The path as Salt shows it: the configured root joined with the path given. */
    private static String shown(Path root, String path) {
        return root + "/" + path;
    }

    /**
     * Salt's {@code salt.utils.files.is_text}: the first 512 bytes hold no NUL and either are UTF-8 or are at
     * most 30% bytes outside printable ASCII and {@code \n\r\t\f\b}. An empty file is text.
     */
    static boolean isText(Path file) {
        byte[] block;
        try (InputStream in = Files.newInputStream(file)) {
            block = in.readNBytes(TEXT_SNIFF);
        } catch (IOException e) {
            return false;
        }
        int other = 0;
        for (byte b : block) {
            if (b == 0) {
                return false;
            }
            if (!(b >= 32 && b < 127) && "\n\r\t\f\b".indexOf(b) < 0) {
                other++;
            }
        }
        if (block.length == 0 || decodesAsUtf8(block)) {
            return true;
        }
        return other <= 0.30 * block.length;
    }

    private static boolean decodesAsUtf8(byte[] block) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(block));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
