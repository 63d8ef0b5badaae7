package io.jsalt.master.cluster;

import io.jsalt.crypto.CryptoException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The cluster MAC: what seals the rows a cluster's masters change often (grains, signing pins, relayed events)
 * against anyone who can write to the database but does not hold {@code master.pem}. HMAC-SHA256 under a key
 * derived from the master private key and a label (as {@code ReturnMacKeys} derives its key), over a label
 * naming the kind of row and its fields, each with its type and length before it, so that no two different
 * rows feed the same bytes and a seal made for one kind of row never passes for another. Microseconds per
 * row, where the master key's RSA signature ({@link MasterSeal}) costs a millisecond: events can carry one each.
 *
 * <p>Values read back from {@code jsonb} come back reformatted (keys reordered, {@code 8.00} as written but
 * {@code 1E+2} as {@code 100}), so a map, list or number is fed in a canonical form that keeps the number's
 * kind: map entries by key; an integer ({@code Long}, {@code Integer}, {@code BigInteger}...) as {@code d} and
 * its decimal value, a fraction ({@code Double}, {@code Float}, {@code BigDecimal}) as {@code f} and its
 * decimal value without trailing zeros, so {@code 8} and {@code 8.0} seal apart while {@code 8.0} and
 * {@code 8.00} (one value of one kind) seal alike. {@code PgJson} writes fractions in plain notation with a
 * decimal point, which {@code jsonb} keeps, so a fraction never comes back as an integer. Seal what the
 * database will give back, i.e. the value as read from the JSON written, and it verifies when read.
 */
public final class ClusterSeal {
    private static final byte[] KEY_LABEL = "jsalt cluster seal v1".getBytes(StandardCharsets.US_ASCII);

    private final SecretKeySpec key;
    private final ThreadLocal<Mac> macs;

    public ClusterSeal(PrivateKey masterKey) {
        this.key = new SecretKeySpec(hmac(new SecretKeySpec(masterKey.getEncoded(), "HmacSHA256"), KEY_LABEL), "HmacSHA256");
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    /**
     * The MAC of one row of kind {@code label}. Parts may be null, String, byte[], Boolean, a Number, a Map, a
     * List or other Collection of these (anything else is fed as its {@code toString()}).
     */
    public byte[] mac(String label, Object... parts) {
        Mac mac = macs.get();
        mac.reset();
        text(mac, label);
        for (Object p : parts) {
            feed(mac, p);
        }
        return mac.doFinal();
    }

    /** True when {@code mac} is the MAC of these parts; false for a missing or wrong one, never an exception. */
    public boolean valid(byte[] mac, String label, Object... parts) {
        return mac != null && MessageDigest.isEqual(mac, mac(label, parts));
    }

    private static void feed(Mac mac, Object value) {
        if (value == null) {
            mac.update((byte) 'n');
        } else if (value instanceof Boolean b) {
            mac.update((byte) (b ? 't' : 'f'));
        } else if (value instanceof CharSequence s) {
            mac.update((byte) 's');
            text(mac, s.toString());
        } else if (value instanceof byte[] bytes) {
            mac.update((byte) 'b');
            bytes(mac, bytes);
        } else if (value instanceof Number n) {
            // integers keep the tag earlier versions gave every number, so rows of integers seal as before
            mac.update((byte) (fractional(n) ? 'f' : 'd'));
            text(mac, canonical(n));
        } else if (value instanceof Map<?, ?> m) {
            List<Map.Entry<String, Object>> entries = new ArrayList<>(m.size());
            m.forEach((k, v) -> entries.add(Map.entry(String.valueOf(k), v == null ? NULL : v)));
            entries.sort(Map.Entry.comparingByKey());
            mac.update((byte) 'm');
            mac.update(length(entries.size()));
            for (Map.Entry<String, Object> e : entries) {
                text(mac, e.getKey());
                feed(mac, e.getValue() == NULL ? null : e.getValue());
            }
        } else if (value instanceof Collection<?> c) {
            mac.update((byte) 'l');
            mac.update(length(c.size()));
            for (Object o : c) {
                feed(mac, o);
            }
        } else {
            mac.update((byte) 's');
            text(mac, value.toString());
        }
    }

    /** Map.entry takes no null value: a stand-in for one. */
    private static final Object NULL = new Object();

    /** A number of a kind that holds fractions: what JSON's {@code 8.0} is read as, never JSON's {@code 8}. */
    private static boolean fractional(Number n) {
        return n instanceof Double || n instanceof Float || n instanceof BigDecimal;
    }

    /** A number as its decimal value: 5.0 and 5.00 alike, 1.0E10 as 10000000000; NaN and infinities as written. */
    private static String canonical(Number n) {
        String s = n.toString();
        try {
            BigDecimal d = new BigDecimal(s).stripTrailingZeros();
            return d.signum() == 0 ? "0" : d.toPlainString();
        } catch (NumberFormatException e) {
            return s;
        }
    }

    private static void text(Mac mac, String s) {
        bytes(mac, s.getBytes(StandardCharsets.UTF_8));
    }

    private static void bytes(Mac mac, byte[] b) {
        mac.update(length(b.length));
        mac.update(b);
    }

    private static byte[] length(int n) {
        return new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 unavailable", e);
        }
    }

    private static byte[] hmac(SecretKeySpec key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new CryptoException("HmacSHA256 unavailable", e);
        }
    }
}
