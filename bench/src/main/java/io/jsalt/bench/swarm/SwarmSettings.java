package io.jsalt.bench.swarm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a swarm worker JVM runs: minions {@code first .. first+count-1} against the master on the given
 * ports, under {@code root}. Passed on the worker's command line.
 *
 * @param kind "real" for the product's {@link io.jsalt.minion.Minion}, "light" for {@link LightMinion}
 * @param failoverRetPort with "real": the request port of a second master, listed after the first under
 *     {@code master_type: failover} with {@code master_alive_interval: 1}; 0 for one master
 * @param requestIdleCloseMs with "light": how long a minion keeps its request connection after a request
 *     ({@link RequestIdleBudget})
 */
public record SwarmSettings(Path root, Path cacheDir, int retPort, int publishPort, int first, int count,
        int authTimeout, int reauthDelay, boolean signReturns, String kind, int failoverRetPort, long requestIdleCloseMs) {

    public SwarmSettings(Path root, Path cacheDir, int retPort, int publishPort, int first, int count,
            int authTimeout, int reauthDelay, boolean signReturns, String kind, int failoverRetPort) {
        this(root, cacheDir, retPort, publishPort, first, count, authTimeout, reauthDelay, signReturns, kind, failoverRetPort,
                io.jsalt.minion.channel.MasterChannel.IDLE_CLOSE.toMillis());
    }

    public SwarmSettings(Path root, Path cacheDir, int retPort, int publishPort, int first, int count,
            int authTimeout, int reauthDelay, boolean signReturns, String kind) {
        this(root, cacheDir, retPort, publishPort, first, count, authTimeout, reauthDelay, signReturns, kind, 0);
    }

    List<String> toArgs() {
        return new ArrayList<>(List.of(root.toString(), cacheDir.toString(), Integer.toString(retPort),
                Integer.toString(publishPort), Integer.toString(first), Integer.toString(count),
                Integer.toString(authTimeout), Integer.toString(reauthDelay), Boolean.toString(signReturns), kind,
                Integer.toString(failoverRetPort), Long.toString(requestIdleCloseMs)));
    }

    static SwarmSettings fromArgs(String[] a) {
        return new SwarmSettings(Path.of(a[0]), Path.of(a[1]), Integer.parseInt(a[2]), Integer.parseInt(a[3]),
                Integer.parseInt(a[4]), Integer.parseInt(a[5]), Integer.parseInt(a[6]), Integer.parseInt(a[7]),
                Boolean.parseBoolean(a[8]), a[9], Integer.parseInt(a[10]), Long.parseLong(a[11]));
    }
}
