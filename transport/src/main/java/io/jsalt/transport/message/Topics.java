package io.jsalt.transport.message;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Publish-port topics under zmq_filtering: {@code sha1(minion id)} hex per minion, or {@code broadcast}. */
public final class Topics {
    public static final byte[] BROADCAST = "broadcast".getBytes(StandardCharsets.US_ASCII);

    private Topics() {}

    public static byte[] ofMinion(String minionId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(minionId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).getBytes(StandardCharsets.US_ASCII);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 unavailable", e);
        }
    }
}
