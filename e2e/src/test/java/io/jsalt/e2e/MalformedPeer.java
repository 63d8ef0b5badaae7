package io.jsalt.e2e;

import io.jsalt.transport.RequestClient;
import io.jsalt.transport.RequestTimeoutException;
import io.jsalt.transport.Transport;
import java.time.Duration;

/** Speaks ZeroMQ correctly but sends frames that are not Salt requests. */
public final class MalformedPeer {
    private MalformedPeer() {}

    public static void sendGarbageOverZmq(int retPort) {
        try (Transport t = Transport.create(); RequestClient c = t.connectRequestClient("127.0.0.1", retPort)) {
            for (byte[] frame : new byte[][] {
                    {(byte) 0xc1}, // a msgpack byte that is never valid
                    {(byte) 0xdf, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}, // a map claiming 2^31 entries
                    "not msgpack at all".getBytes(),
                    {(byte) 0x81, (byte) 0xa3, 'e', 'n', 'c', (byte) 0xa4, 'r', 'o', 's', 'e'}}) { // {"enc": "rose"}
                try {
                    c.request(frame, Duration.ofSeconds(5));
                } catch (RequestTimeoutException e) {
                    throw new AssertionError("the master did not answer a malformed request", e);
                }
            }
        }
    }
}
