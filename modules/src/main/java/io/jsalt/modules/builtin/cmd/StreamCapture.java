package io.jsalt.modules.builtin.cmd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drains one output stream of a process on its own thread, keeping at most {@code maxBytes}.
 *
 * <p>It goes on reading (and dropping) past the cap, so a chatty process never blocks on a full
 * pipe, and each stream has its own thread, so a process that fills stderr while we wait on stdout
 * cannot deadlock us.
 */
final class StreamCapture implements Runnable {

    private final InputStream in;
    private final int maxBytes;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final Thread thread;
    private boolean truncated;

    StreamCapture(InputStream in, int maxBytes, String threadName) {
        this.in = in;
        this.maxBytes = maxBytes;
        this.thread = new Thread(this, threadName);
        // a grandchild that keeps the pipe open must not keep the JVM alive
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                append(buffer, n);
            }
        } catch (IOException e) {
            // the stream was closed under us (process killed): keep what was read
        }
    }

    private synchronized void append(byte[] buffer, int n) {
        int room = maxBytes - kept.size();
        if (n > room) {
            truncated = true;
        }
        if (room > 0) {
            kept.write(buffer, 0, Math.min(n, room));
        }
    }

    /** Waits up to {@code millis} for end of stream; false if the stream is still open (held by an orphan). */
    boolean await(long millis) throws InterruptedException {
        thread.join(Math.max(1, millis));
        return !thread.isAlive();
    }

    /** What was read so far, with a note when the cap was hit. */
    synchronized String text() {
        String text = kept.toString(StandardCharsets.UTF_8);
        return truncated ? text + "\n[output truncated at " + maxBytes + " bytes]" : text;
    }
}
