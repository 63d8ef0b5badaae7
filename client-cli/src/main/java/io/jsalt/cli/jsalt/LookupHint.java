package io.jsalt.cli.jsalt;

import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.SuggestedCommand;
import java.nio.file.Path;

/**
 * The command jsalt suggests for looking a job's returns up later (Salt's "salt-run jobs.lookup_jid <jid>"),
 * with the config folder jsalt was run with.
 */
record LookupHint(Path configDir) {
    /** For a jsalt run without {@code -c}. */
    static final LookupHint DEFAULT = new LookupHint(Path.of(ConfigLoader.DEFAULT_DIR));

    String command(String jid) {
        return SuggestedCommand.of(configDir, "jsalt-run", "jobs.lookup_jid", jid);
    }
}
