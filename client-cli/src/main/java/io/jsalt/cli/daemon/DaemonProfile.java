package io.jsalt.cli.daemon;

import io.jsalt.cli.Logging;
import io.jsalt.config.DaemonConfig;
import io.jsalt.config.MasterConfig;
import io.jsalt.config.MinionConfig;
import java.nio.file.Path;

/**
 * What the launcher needs from a master's or a minion's config: the folders it prepares, the log
 * settings and the daemon keys. Both configs reduce to this, so the launcher is written once.
 */
record DaemonProfile(Path pkiDir, Path cachedir, Path sockDir, Path logFile, String logLevel, DaemonConfig daemon,
        Path auditFile) {

    DaemonProfile(Path pkiDir, Path cachedir, Path sockDir, Path logFile, String logLevel, DaemonConfig daemon) {
        this(pkiDir, cachedir, sockDir, logFile, logLevel, daemon, null);
    }

    static DaemonProfile of(MasterConfig c) {
        return new DaemonProfile(c.pkiDir(), c.cachedir(), c.sockDir(), c.logFile(), c.logLevel(), c.daemon());
    }

    static DaemonProfile of(MinionConfig c) {
        return new DaemonProfile(c.pkiDir(), c.cachedir(), c.sockDir(), c.logFile(), c.logLevel(), c.daemon());
    }

    /**
     * The log settings: {@code -l} (when given) wins over both levels, as Salt's command line does over
     * its config; no console for a detached daemon (its stderr is /dev/null).
     */
    Logging.Settings logSettings(String cliLevel, boolean console) {
        String consoleLevel = console ? (cliLevel != null ? cliLevel : logLevel) : null;
        String fileLevel = cliLevel != null ? cliLevel : daemon.logLevelLogfile();
        return new Logging.Settings(logFile, consoleLevel, fileLevel, daemon.logFmtLogfile(),
                daemon.logRotateMaxBytes(), daemon.logRotateBackupCount(), auditFile);
    }
}
