package io.jsalt.master.pillar;

import io.jsalt.master.files.FileServer;
import io.jsalt.states.StatesException;
import io.jsalt.states.files.StateFiles;
import io.jsalt.transport.message.UnsafePathException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The files under {@code pillar_roots}, read on the master only: each saltenv's folders searched in order, as the
 * file server reads {@code file_roots} (the same path checks, {@link FileServer}), but never served to a minion.
 */
final class PillarFiles implements StateFiles {
    /** Pillar files are read whole; the chunk size of the file server does not apply. */
    private static final int UNUSED_CHUNK = 1 << 20;

    private final Supplier<Map<String, List<Path>>> roots;
    private final FileServer server;

    PillarFiles(Supplier<Map<String, List<Path>>> roots) {
        this.roots = roots;
        this.server = new FileServer(roots, () -> UNUSED_CHUNK);
    }

    @Override
    public Optional<byte[]> read(String path, String saltenv) {
        try {
            Optional<FileServer.Found> found = server.find(saltenv, path);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(Files.readAllBytes(found.get().file()));
        } catch (UnsafePathException e) {
            throw new StatesException("unsafe pillar path: '" + path + "'", e);
        } catch (IOException e) {
            throw new StatesException("cannot read pillar file '" + path + "' in saltenv " + saltenv + ": " + e.getMessage(), e);
        }
    }

    /** The file of SLS {@code sls} ({@code a.b} is {@code a/b.sls} or {@code a/b/init.sls}) and its path, if any. */
    Optional<Sls> sls(String sls, String saltenv) {
        for (String path : List.of(sls.replace('.', '/') + ".sls", sls.replace('.', '/') + "/init.sls")) {
            Optional<byte[]> bytes = read(path, saltenv);
            if (bytes.isPresent()) {
                return Optional.of(new Sls(path, bytes.get()));
            }
        }
        return Optional.empty();
    }

    record Sls(String path, byte[] bytes) {}

    /** Salt's {@code list_states}: every {@code .sls} file as an SLS name ({@code a/init.sls} is {@code a}). */
    List<String> slsNames(String saltenv) {
        Set<String> names = new LinkedHashSet<>();
        for (String path : server.list(saltenv, "")) {
            if (path.endsWith("/init.sls")) {
                names.add(path.substring(0, path.length() - "/init.sls".length()).replace('/', '.'));
            } else if (path.endsWith(".sls")) {
                names.add(path.substring(0, path.length() - ".sls".length()).replace('/', '.'));
            }
        }
        return new ArrayList<>(names);
    }

    /** Salt's {@code _get_envs}: base first, then the other saltenvs of pillar_roots in their order. */
    List<String> saltenvs() {
        Set<String> envs = new LinkedHashSet<>();
        envs.add("base");
        envs.addAll(roots.get().keySet());
        return new ArrayList<>(envs);
    }

    boolean hasSaltenv(String saltenv) {
        return roots.get().containsKey(saltenv);
    }
}
