package io.jsalt.states.files;

import java.util.List;
import java.util.Optional;

/**
 * Where SLS files, templates and {@code salt://} sources come from: the master's file server on a minion, a local
 * folder in tests and {@code --local} runs.
 */
public interface StateFiles {

    /**
     * The bytes of {@code path} ('/'-separated, relative to the saltenv's roots) in {@code saltenv}.
     *
     * @return empty when there is no such file
     * @throws io.jsalt.states.StatesException when the path is unsafe or the source cannot be read
     */
    Optional<byte[]> read(String path, String saltenv);

    /** The saltenvs there are files for, sorted (Salt's {@code fileclient.envs}); none known by default. */
    default List<String> fileEnvs() {
        return List.of();
    }

    /**
     * The files under {@code prefix} in {@code saltenv} (Salt's {@code cp.list_master}), '/'-separated and relative
     * to the roots, as the file server lists them: a caller checks each one before joining it to a folder.
     */
    default List<String> list(String prefix, String saltenv) {
        return List.of();
    }

    /** Strips {@code salt://} and checks the rest is a plain relative path. */
    static String pathOf(String saltUrl) {
        String path = saltUrl.startsWith("salt://") ? saltUrl.substring("salt://".length()) : saltUrl;
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query); // ?saltenv=... is taken from the state's saltenv instead
        }
        return SafePath.check(path);
    }
}
