package io.jsalt.minion.supervisor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices the exit of processes the supervisor did not start (adopted from an earlier minion, a daemon from its
 * pidfile, a process found by its command line), which the JVM cannot wait for: they are not its children, and
 * {@link ProcessHandle#onExit()} polls such a pid from a thread of its own with sleeps of up to 5 s.
 *
 * <p>One helper process watches them all with a pidfd each ({@code pidfd_open}, Linux 5.3): the kernel wakes it
 * when a process exits, so an exit is told at once and an idle supervisor costs no CPU, however many processes it
 * adopted. Java 17 cannot make that system call itself (no JNI here, and the foreign function API is not final
 * in 17); Perl's {@code syscall} can, and {@code perl-base} is Essential on Debian and Ubuntu. The helper
 * ({@code exitwatch.pl}) reads {@code "<pid> <starttime>"} lines and answers {@code "exit <pid>"}; it checks the
 * start time after opening the pidfd, so a pid reused in between is told as an exit, never watched by mistake.
 *
 * <p>Where the helper cannot run (no {@code /usr/bin/perl}, a kernel without pidfd, the helper died), a pid is
 * {@linkplain #polled polled}: the supervisor checks it every second instead, as it did before this class.
 */
final class ExitWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ExitWatch.class);
    static final Path PERL = Path.of("/usr/bin/perl");
    private static final String SCRIPT = script();

    private final Path perl;
    private final LongConsumer onExit;
    private final String threadName;
    private final Set<Long> polled = ConcurrentHashMap.newKeySet();
    /** Guarded by this. */
    private Process helper;
    private Writer toHelper;
    /** No helper from now on: every pid is polled. */
    private volatile boolean broken;
    private volatile boolean closed;

    /**
     * @param perl   the Perl to run the helper with ({@link #PERL}); a path that is not executable: every pid is polled
     * @param onExit told the pid of each process that exited, on the helper's reader thread: must not block
     */
    ExitWatch(Path perl, LongConsumer onExit, String threadName) {
        this.perl = perl;
        this.onExit = onExit;
        this.threadName = threadName;
    }

    private static String script() {
        try (InputStream in = ExitWatch.class.getResourceAsStream("exitwatch.pl")) {
            if (in == null) {
                throw new IllegalStateException("exitwatch.pl is missing from the minion's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Watches {@code pid}, which must have the start time {@code ticks} (field 22 of its /proc stat); its exit (or
     * another start time by the time the helper looks) is told to the listener. The helper starts with the first
     * call. False when it cannot be watched: the caller polls it ({@link #polled} is then true).
     */
    synchronized boolean watch(long pid, long ticks) {
        polled.remove(pid);
        if (closed || broken || (helper == null && !startHelper())) {
            polled.add(pid);
            return false;
        }
        try {
            toHelper.write(pid + " " + ticks + "\n");
            toHelper.flush();
            return true;
        } catch (IOException e) {
            giveUp("cannot write to it: " + e.getMessage());
            polled.add(pid);
            return false;
        }
    }

    /** Whether the exit of {@code pid} is to be found by polling: the helper does not watch it. */
    boolean polled(long pid) {
        return broken || polled.contains(pid);
    }

    /** The helper's pid, 0 when none runs: it is no program's process, whatever its command line matches. */
    synchronized long helperPid() {
        return helper != null && helper.isAlive() ? helper.pid() : 0;
    }

    private boolean startHelper() {
        if (!Files.isExecutable(perl)) {
            giveUp(perl + " is not there");
            return false;
        }
        try {
            helper = new ProcessBuilder(perl.toString(), "-e", SCRIPT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            giveUp("cannot start it: " + e.getMessage());
            return false;
        }
        toHelper = new OutputStreamWriter(helper.getOutputStream(), StandardCharsets.US_ASCII);
        Process started = helper;
        Thread reader = new Thread(() -> read(started), threadName);
        reader.setDaemon(true);
        reader.start();
        log.debug("exit watcher started, pid {}", started.pid());
        return true;
    }

    private void read(Process from) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(from.getInputStream(), StandardCharsets.US_ASCII))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.equals("nosys")) {
                    giveUp("this kernel has no pidfd_open");
                } else if (line.startsWith("exit ") || line.startsWith("poll ")) {
                    long pid = Long.parseLong(line.substring(5));
                    if (line.startsWith("poll ")) {
                        polled.add(pid);
                    }
                    onExit.accept(pid); // a polled pid is looked at once now, then every second
                }
            }
        } catch (IOException | RuntimeException e) {
            log.debug("exit watcher output: {}", e.toString());
        }
        if (!closed) {
            giveUp("it ended");
        }
    }

    private void giveUp(String why) {
        if (!broken && !closed) {
            log.warn("exit watcher: {}; the exits of processes this minion did not start are looked for every second", why);
        }
        broken = true;
    }

    /** Ends the helper (its input closes). */
    @Override
    public synchronized void close() {
        closed = true;
        if (helper != null) {
            try {
                toHelper.close();
            } catch (IOException e) {
                log.debug("closing the exit watcher: {}", e.toString());
            }
            helper.destroy();
        }
    }
}
