package io.jsalt.transport.message;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Publish-port topics: under zmq_filtering, {@code sha1(minion id)} hex per minion or {@code broadcast}, as
 * Salt; without it, the short presence topic a jsalt minion adds so the master can see it.
 */
public final class Topics {
    public static final byte[] BROADCAST = "broadcast".getBytes(StandardCharsets.US_ASCII);
    /**
     * The longest topic anyone subscribes to: Salt's sha1 hex of a minion id (40); {@code broadcast} (9), a
     * jsalt presence topic (7) and the empty topic are shorter.
     */
    public static final int MAX_BYTES = 40;

    /** No publication topic starts with it: hex digits and {@code broadcast} do not. */
    private static final byte PRESENCE_MARK = (byte) 0xFF;
    private static final int PRESENCE_HASH_BYTES = 6;

    private Topics() {}

    public static byte[] ofMinion(String minionId) {
        return filteringTopic(sha1(minionId));
    }

    /**
     * A jsalt minion's presence topic without zmq_filtering: a mark byte and 48 bits of {@code sha1(id)}
     * (two of 10,000 ids share one with a chance of about 2 in 10 million). Short on purpose: JeroMQ's XPUB
     * walks its whole subscription trie each time a connection closes, and the trie holds about one node
     * per topic byte that no other topic shares. When 10,000 minions leave at once, the publisher thread
     * spends ~6.5 s on it with these 7 bytes and ~45 s with the 40-byte hex topic (docs/protocol.md).
     */
    public static byte[] presenceOf(String minionId) {
        return presenceTopic(sha1(minionId));
    }

    /**
     * Whether a minion has a live subscriber: its presence topic (jsalt minions) or its zmq_filtering topic
     * (salt-minions with zmq_filtering) is among {@code topics}, the publish socket's subscribed topics as
     * ISO-8859-1 strings.
     */
    public static boolean isSubscribedBy(Set<String> topics, String minionId) {
        byte[] digest = sha1(minionId);
        return topics.contains(latin1(presenceTopic(digest))) || topics.contains(latin1(filteringTopic(digest)));
    }

    /**
     * The topics by which {@link #isSubscribedBy(Set, String)} knows {@code minionId} listens, for a caller that
     * asks about the same minion again and again (each look-up of them hashes the id).
     */
    public static List<String> listeningTopicsOf(String minionId) {
        byte[] digest = sha1(minionId);
        return List.of(latin1(presenceTopic(digest)), latin1(filteringTopic(digest)));
    }

    /** {@link #isSubscribedBy(Set, String)} for a minion's {@link #listeningTopicsOf}. */
    public static boolean isSubscribedBy(Set<String> topics, List<String> listeningTopics) {
        for (String topic : listeningTopics) {
            if (topics.contains(topic)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] filteringTopic(byte[] digest) {
        return HexFormat.of().formatHex(digest).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] presenceTopic(byte[] digest) {
        byte[] topic = new byte[1 + PRESENCE_HASH_BYTES];
        topic[0] = PRESENCE_MARK;
        System.arraycopy(digest, 0, topic, 1, PRESENCE_HASH_BYTES);
        return topic;
    }

    private static String latin1(byte[] topic) {
        return new String(topic, StandardCharsets.ISO_8859_1);
    }

    private static byte[] sha1(String minionId) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(minionId.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 unavailable", e);
        }
    }
}
