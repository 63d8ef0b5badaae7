package io.jsalt.modules.builtin.cmd;

import io.jsalt.modules.api.JobControl;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one process to completion: feeds stdin, drains stdout and stderr on their own threads, and on
 * timeout or interruption kills the process and every descendant it started.
 *
 * <p>Threads: the caller's thread waits for the process; one daemon thread per output stream and one
 * for stdin live only as long as the pipes do.
 */
public final class CommandRunner {

    private static final Logger LOG = LoggerFactory.getLogger(CommandRunner.class);

    /** How long to wait for the pipes to close once the process is gone; an orphan may hold them open. */
    private static final long DRAIN_GRACE_MILLIS = 2_000;
    /** How long a killed process gets to be reaped. */
    private static final long KILL_GRACE_MILLIS = 5_000;
    private static final Pattern ERRNO = Pattern.compile("error=(\\d+), (.*)");

    private CommandRunner() {
    }

    /**
     * Runs {@code spec}.
     *
     * @throws CommandLaunchException when the program cannot be started
     * @throws InterruptedException   when the calling thread is interrupted; the process tree is killed first
     */
    public static CommandOutcome run(CommandSpec spec) throws CommandLaunchException, InterruptedException {
        return run(spec, JobControl.NONE);
    }

    /**
     * Runs {@code spec} as part of {@code job}, which hears of the process as soon as it has started (for the
     * job's proc record, so that {@code saltutil.kill_job} can find it).
     *
     * @throws CommandLaunchException when the program cannot be started
     * @throws InterruptedException   when the calling thread is interrupted; the process tree is killed first
     */
    public static CommandOutcome run(CommandSpec spec, JobControl job) throws CommandLaunchException,
            InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(spec.argv()).directory(spec.cwd().toFile());
        Map<String, String> environment = builder.environment();
        if (!spec.inheritEnv()) {
            environment.clear();
        }
        spec.env().forEach((name, value) -> {
            if (value == null) {
                environment.remove(name);
            } else {
                environment.put(name, value);
            }
        });
        builder.redirectErrorStream(spec.mergeStderr());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw launchFailure(spec.argv().get(0), e);
        }
        long pid = process.pid();
        try {
            job.childStarted(process.toHandle());
        } catch (RuntimeException e) {
            // a proc record that cannot be written must not leave the process running unwatched
            killTree(process);
            throw e;
        }
        StreamCapture stdout = new StreamCapture(process.getInputStream(), spec.maxBytes(), "cmd-" + pid + "-stdout");
        StreamCapture stderr = spec.mergeStderr() ? null
                : new StreamCapture(process.getErrorStream(), spec.maxBytes(), "cmd-" + pid + "-stderr");
        stdout.start();
        if (stderr != null) {
            stderr.start();
        }
        feed(process, spec.stdin());

        boolean timedOut = false;
        try {
            if (spec.timeout() == null) {
                process.waitFor();
            } else if (!process.waitFor(spec.timeout().toNanos(), TimeUnit.NANOSECONDS)) {
                timedOut = true;
                LOG.info("command {} (pid {}) timed out after {}; killing it", spec.argv().get(0), pid, spec.timeout());
                killTree(process);
            }
        } catch (InterruptedException e) {
            killTree(process);
            throw e;
        }
        drain(stdout, pid);
        if (stderr != null) {
            drain(stderr, pid);
        }
        // -1 only if a killed process could not even be reaped within the grace period
        int exitCode = process.isAlive() ? -1 : process.exitValue();
        return new CommandOutcome(pid, exitCode, stdout.text(), stderr == null ? "" : stderr.text(),
                timedOut);
    }

    /** Kills the process and every process below it, then waits for it to be reaped. */
    static void killTree(Process process) throws InterruptedException {
        // the descendants are listed first: once the parent dies they are re-parented and out of reach
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        if (!process.waitFor(KILL_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
            LOG.warn("pid {} survived SIGKILL for {} ms", process.pid(), KILL_GRACE_MILLIS);
        }
    }

    private static void drain(StreamCapture capture, long pid) throws InterruptedException {
        if (!capture.await(DRAIN_GRACE_MILLIS)) {
            LOG.info("output of pid {} is still held open by a background process; returning what was read", pid);
        }
    }

    /** Writes stdin on its own thread: a process that writes before it reads must not block us. */
    private static void feed(Process process, String stdin) {
        OutputStream in = process.getOutputStream();
        if (stdin == null) {
            closeQuietly(in);
            return;
        }
        byte[] bytes = stdin.getBytes(StandardCharsets.UTF_8);
        Thread writer = new Thread(() -> {
            try (in) {
                in.write(bytes);
            } catch (IOException e) {
                // the process exited or closed stdin without reading it all, as `true` does
            }
        }, "cmd-" + process.pid() + "-stdin");
        writer.setDaemon(true);
        writer.start();
    }

    private static void closeQuietly(OutputStream out) {
        try {
            out.close();
        } catch (IOException e) {
            // nothing to do: the process is gone
        }
    }

    private static CommandLaunchException launchFailure(String program, IOException e) {
        String reason = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        int exitCode = 127;
        Matcher errno = ERRNO.matcher(reason);
        if (errno.find()) {
            // EACCES and friends: the shell's "found but cannot execute"
            exitCode = errno.group(1).equals("2") ? 127 : 126;
            reason = errno.group(2);
        }
        return new CommandLaunchException("Unable to run command '" + program + "': " + reason, exitCode, e);
    }
}
