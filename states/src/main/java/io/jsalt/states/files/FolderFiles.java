package io.jsalt.states.files;

import io.jsalt.states.StatesException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.List;
import java.util.Optional;

/** Files from local folders, one per saltenv (a {@code file_roots} of one folder each); for tests and local runs. */
public final class FolderFiles implements StateFiles {
    private final Map<String, Path> roots;

    public FolderFiles(Map<String, Path> roots) {
        this.roots = Map.copyOf(roots);
    }

    /** One folder for {@code base}. */
    public static FolderFiles base(Path root) {
        return new FolderFiles(Map.of("base", root));
    }

    @Override
    public List<String> fileEnvs() {
        return roots.keySet().stream().sorted().toList();
    }

    @Override
    public List<String> list(String prefix, String saltenv) {
        Path root = roots.get(saltenv);
        if (root == null || !Files.isDirectory(root)) {
            return List.of();
        }
        try (java.util.stream.Stream<Path> tree = Files.walk(root)) {
            return tree.filter(Files::isRegularFile).map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(p -> p.startsWith(prefix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
    }

    @Override
    public Optional<byte[]> read(String path, String saltenv) {
        Path root = roots.get(saltenv);
        if (root == null) {
            return Optional.empty();
        }
        Path file = root.resolve(SafePath.check(path)).normalize();
        if (!file.startsWith(root.normalize())) {
            throw new StatesException("unsafe file server path: '" + path + "'");
        }
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
