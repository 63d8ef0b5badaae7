package io.jsalt.transport.zmq;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import zmq.ZError;

/**
 * What JeroMQ's own threads (the reaper, the I/O threads) hit is logged in one line and kept for tests,
 * never printed as a stack trace on stderr, JeroMQ's default: a {@code jsalt} user once saw
 * {@code zmq.ZError$IOException: java.nio.channels.ClosedChannelException at zmq.Signaler.send} after a
 * normal answer, a termination's acknowledgement sent to a socket already gone.
 */
class JeroMqThreadExceptionsTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream realErr;
    private SocketContext context;

    @BeforeEach
    void captureStderr() {
        context = new SocketContext("exceptions-test", 1); // first: slf4j says what it says when it starts
        realErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(realErr);
        context.terminate();
    }

    @Test
    void aCommandToASocketAlreadyGoneIsNeitherPrintedNorCountedAsAProblem() {
        Thread io = new Thread(() -> { }, "iothread-1");

        context.getContext().getNotificationExceptionHandler()
                .uncaughtException(io, new ZError.IOException(new ClosedChannelException()));

        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(context.commandsToObjectsGone()).isEqualTo(1);
        assertThat(context.notifications()).isEmpty();
    }

    @Test
    void aCommandToASocketTheReaperHasDestroyedIsNeitherPrintedNorCountedAsAProblem() {
        Thread io = new Thread(() -> { }, "iothread-2");
        // what Ctx.sendCommand throws once the socket's slot is emptied: slots[tid].send(command) on null
        NullPointerException slotGone = new NullPointerException("Cannot invoke \"zmq.IMailbox.send(zmq.Command)\"");
        slotGone.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("zmq.Ctx", "sendCommand", "Ctx.java", 601),
            new StackTraceElement("zmq.ZObject", "sendCommand", "ZObject.java", 387)});

        context.getContext().getNotificationExceptionHandler().uncaughtException(io, slotGone);

        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(context.commandsToObjectsGone()).isEqualTo(1);
        assertThat(context.notifications()).isEmpty();
    }

    @Test
    void aNullPointerElsewhereInJeroMqIsKeptAsAProblem() {
        Thread io = new Thread(() -> { }, "iothread-1");
        NullPointerException elsewhere = new NullPointerException("engine");
        elsewhere.setStackTrace(new StackTraceElement[] {new StackTraceElement("zmq.io.StreamEngine", "in", "StreamEngine.java", 1)});

        context.getContext().getNotificationExceptionHandler().uncaughtException(io, elsewhere);

        assertThat(context.commandsToObjectsGone()).isZero();
        assertThat(context.notifications()).containsExactly("iothread-1: java.lang.NullPointerException: engine");
    }

    @Test
    void anyOtherIoThreadExceptionIsKeptAndNotPrinted() {
        Thread io = new Thread(() -> { }, "iothread-1");

        context.getContext().getNotificationExceptionHandler()
                .uncaughtException(io, new IllegalStateException("engine failed"));

        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(context.notifications()).containsExactly("iothread-1: java.lang.IllegalStateException: engine failed");
    }

    @Test
    void aDeadReaperIsKeptAndNotPrinted() {
        Thread reaper = new Thread(() -> { }, "reaper-1");

        context.getContext().getUncaughtExceptionHandler().uncaughtException(reaper, new AssertionError());

        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(context.threadFailures()).containsExactly("reaper-1: java.lang.AssertionError");
    }
}
