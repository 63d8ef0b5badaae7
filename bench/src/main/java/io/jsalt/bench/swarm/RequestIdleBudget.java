package io.jsalt.bench.swarm;

import io.jsalt.config.MinionConfig;
import io.jsalt.minion.channel.MasterChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How long a light minion keeps its request connection open after a request: as long as a jsalt-minion does by
 * default ({@code request_idle_close}) when the master's descriptors hold every minion's publish and request
 * connections at once, else the short close an operator would set for such a fleet (docs/configuration.md). The
 * master is started by the bench and inherits its limit on open files.
 */
final class RequestIdleBudget {
    /** The master's own descriptors beside its minions' (job cache, logs, sockets of its threads), with room to spare. */
    static final int MASTER_OWN_FDS = 1000;

    private RequestIdleBudget() {}

    static Duration forSwarmOf(int minions) {
        return forSwarmOf(minions, openFilesLimit());
    }

    static Duration forSwarmOf(int minions, long openFilesLimit) {
        boolean fits = 2L * minions + MASTER_OWN_FDS <= openFilesLimit;
        return fits ? Duration.ofMillis((long) (MinionConfig.DEFAULT_REQUEST_IDLE_CLOSE * 1000)) : MasterChannel.IDLE_CLOSE;
    }

    /** The soft limit on open files of this process (and so of the master it starts), from /proc/self/limits. */
    static long openFilesLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown: assume the short close, which fits any budget
        }
        return 0;
    }
}
