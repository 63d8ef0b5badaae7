package io.jsalt.transport;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.message.RequestEnvelope;
import java.util.Arrays;
import java.util.Map;

/**
 * The request a master sends to its own request port to prove its transport alive: a clear request with
 * the command {@code _transport_probe}, a name no Salt peer uses. A request server answers exactly these
 * bytes itself, with {@code True}, ahead of the worker queue, so that the probe tests
 * the I/O thread and the router and is never starved by a busy pool (a sign-in storm must not look like
 * a dead transport); the workers are watched as threads of their own.
 */
public final class HealthProbe {
    private static final byte[] REQUEST = RequestEnvelope.clear(Map.of("cmd", "_transport_probe")).encode();
    private static final byte[] ANSWER = SaltPack.pack(Boolean.TRUE);

    private HealthProbe() {}

    public static byte[] request() {
        return REQUEST.clone();
    }

    public static byte[] answer() {
        return ANSWER.clone();
    }

    public static boolean isProbe(byte[] frame) {
        return frame.length == REQUEST.length && Arrays.equals(frame, REQUEST);
    }
}
