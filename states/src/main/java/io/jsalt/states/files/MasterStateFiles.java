package io.jsalt.states.files;

import io.jsalt.modules.api.MasterFiles;
import io.jsalt.states.StatesException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The master's file server through the minion's file client (Salt's {@code cp.cache_file}): a file is listed
 * first, so that an absent file is an empty answer and not an error, then fetched into the minion's cache.
 *
 * <p>One instance serves one state run, and reads each file once in it: a formula that renders one template for
 * 200 states asks the master once, not 200 times (a list and a hash request each, 400 round trips for nothing new).
 * The run thus sees one snapshot of the file server, where Salt asks again per state and could mix two versions
 * of a file edited during the run.
 */
public final class MasterStateFiles implements StateFiles {
    private final MasterFiles files;
    private final Map<String, Optional<byte[]>> read = new ConcurrentHashMap<>();

    public MasterStateFiles(MasterFiles files) {
        this.files = files;
    }

    @Override
    public List<String> fileEnvs() {
        return files.envs();
    }

    @Override
    public Optional<byte[]> read(String path, String saltenv) {
        String safe = SafePath.check(path);
        String key = saltenv + "\u0000" + safe;
        Optional<byte[]> known = read.get(key);
        if (known == null) {
            known = fetch(safe, saltenv);
            read.put(key, known);
        }
        return known.map(byte[]::clone); // a caller may change its copy
    }

    private Optional<byte[]> fetch(String safe, String saltenv) {
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
