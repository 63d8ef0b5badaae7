package io.jsalt.states.files;

import io.jsalt.modules.api.MasterFiles;
import io.jsalt.states.StatesException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The master's file server through the minion's file client (Salt's {@code cp.cache_file}): a file is listed
 * first, so that an absent file is an empty answer and not an error, then fetched into the minion's cache.
 */
public final class MasterStateFiles implements StateFiles {
    private final MasterFiles files;

    public MasterStateFiles(MasterFiles files) {
        this.files = files;
    }

    @Override
    public List<String> fileEnvs() {
        return files.envs();
    }

    @Override
    public List<String> list(String prefix, String saltenv) {
        return files.list(prefix, saltenv);
    }

    @Override
    public Optional<byte[]> read(String path, String saltenv) {
        String safe = SafePath.check(path);
        if (!files.list(safe, saltenv).contains(safe)) {
            return Optional.empty();
        }
        Path local = files.cache("salt://" + safe, saltenv);
        try {
            return Optional.of(Files.readAllBytes(local));
        } catch (IOException e) {
            throw new StatesException("cannot read the cached copy of salt://" + safe + ": " + e.getMessage(), e);
        }
    }
}
