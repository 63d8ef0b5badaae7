package io.jsalt.modules.api;

import java.nio.file.Path;
import java.util.List;

/**
 * The master's file server as a module sees it (Salt's {@code cp} / fileclient). A minion that is signed in to a
 * master implements it; {@code --local} runs get {@link #NONE}.
 */
public interface MasterFiles {

    /** Every call fails: there is no master to fetch from. */
    MasterFiles NONE = new MasterFiles() {
        @Override
        public Path cache(String saltUrl, String saltenv) {
            throw new CommandExecutionException("no master (--local)");
        }

        @Override
        public List<String> list(String prefix, String saltenv) {
            throw new CommandExecutionException("no master (--local)");
        }
    };

    /**
     * Fetches {@code salt://path} from {@code saltenv} into the minion's file cache, verified by hash.
     *
     * @return the local copy
     * @throws CommandExecutionException when the file is absent or there is no master
     */
    Path cache(String saltUrl, String saltenv);

    /** The files under {@code prefix} in {@code saltenv}, relative and '/'-separated. */
    List<String> list(String prefix, String saltenv);

    /**
     * The saltenvs the master's file server has (Salt's {@code _file_envs}), sorted.
     *
     * @throws CommandExecutionException when there is no master or it cannot say
     */
    default List<String> envs() {
        throw new CommandExecutionException("the file server's saltenvs are not available here");
    }

    /**
     * The master's hash of {@code salt://path} in {@code saltenv} (Salt's {@code _file_hash}) without fetching it.
     *
     * @return empty when the master has no such file
     * @throws CommandExecutionException when there is no master
     */
    default java.util.Optional<FileHash> hash(String saltUrl, String saltenv) {
        throw new CommandExecutionException("file hashes are not available here");
    }

    /**
     * The master's options a highstate is compiled with (Salt's {@code _master_opts}: saltenvs, nodegroups, ...).
     *
     * @throws CommandExecutionException when there is no master
     */
    default java.util.Map<String, Object> masterOpts() {
        throw new CommandExecutionException("the master's options are not available here");
    }

    /** Salt's {@code {hsum, hash_type}}. */
    record FileHash(String hsum, String hashType) {}
}
