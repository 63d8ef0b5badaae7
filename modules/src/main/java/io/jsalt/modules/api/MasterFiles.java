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
}
