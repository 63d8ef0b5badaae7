package io.jsalt.minion.saltutil;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Any signal to a job's child processes. The JDK can send only SIGTERM and SIGKILL, so other signals go
 * through {@code kill(1)}, with the pids as arguments (never a shell).
 */
final class JobSignals {
    private static final Logger log = LoggerFactory.getLogger(JobSignals.class);

    void send(int signal, List<ProcessHandle> children) {
        if (signal <= 0 || signal > 64) {
            throw new io.jsalt.modules.api.CommandExecutionException("not a signal number: " + signal);
        }
        List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
        for (ProcessHandle child : children) {
            child.descendants().forEach(p -> command.add(Long.toString(p.pid())));
            command.add(Long.toString(child.pid()));
        }
        if (command.size() == 2) {
            return;
        }
        try {
            Process kill = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            log.warn("cannot send signal {}: {}", signal, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
