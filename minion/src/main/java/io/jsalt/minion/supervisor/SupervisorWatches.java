package io.jsalt.minion.supervisor;

import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * What a supervisor watches by itself rather than being told: the size of each output log, for its rotation
 * ({@link RotationWatch}, ticked every second), and the exits of the processes that are not the JVM's children
 * ({@link ExitWatch}; looked at every second only where its helper cannot run). Not thread-safe: the supervisor's
 * thread only, except {@link #watch}, which the exit watch guards itself.
 */
final class SupervisorWatches implements AutoCloseable {
    private final RotationWatch rotations = new RotationWatch();
    private final ExitWatch exits;
    private long seconds;

    /** @param exited told (on the exit watch's thread) the pid of an adopted process that exited */
    SupervisorWatches(LongConsumer exited, String threadName, Path perl) {
        this.exits = new ExitWatch(perl, exited, threadName + "-exits");
    }

    /** An adopted process (pid, start time) whose exit is to be told. */
    void watch(long pid, long ticks) {
        exits.watch(pid, ticks);
    }

    /** Every second: the logs due for a look, and the adopted processes whose exit is polled here. */
    void tick(Collection<SupervisedProcess> processes) {
        for (SupervisedProcess p : List.copyOf(processes)) {
            if (p.isAdopted() && exits.polled(p.pid())) {
                p.checkAdopted();
            }
            rotations.tick(p.config().stdout());
            rotations.tick(p.config().stderr());
        }
        if (++seconds % RotationWatch.MAX_SECONDS == 0) {
            Set<Path> files = new HashSet<>();
            processes.forEach(p -> {
                files.add(p.config().stdout().file());
                files.add(p.config().stderr().file());
            });
            rotations.retain(files);
        }
    }

    /** The exit watch told that {@code pid} exited: the process that has it confirms by its start time. */
    static void exitOf(long pid, Collection<SupervisedProcess> processes) {
        for (SupervisedProcess p : processes) {
            if (p.isAdopted() && p.pid() == pid) {
                p.checkAdopted();
            }
        }
    }

    /** The pids the supervisor has, and the exit watch's: none of them is another program's outside process. */
    Set<Long> ownPids(Collection<SupervisedProcess> processes) {
        Set<Long> pids = new HashSet<>();
        processes.forEach(p -> pids.add(p.pid()));
        pids.add(exits.helperPid());
        return pids;
    }

    @Override
    public void close() {
        exits.close();
    }
}
