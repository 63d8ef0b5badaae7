package io.jsalt.master.cluster;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Signature;

/**
 * What only a holder of the cluster's master key can do with the shared rows: sign them (SHA256withRSA, over
 * a label naming what the bytes are, so a signature made for one kind of row never passes for another) and
 * open what was sealed to it (RSA-OAEP). The database is then trusted with nothing secret and with no grant:
 * someone who can write to it cannot make a key accepted or choose the session key, and someone who can read
 * it learns no session key.
 */
public final class MasterSeal {
    private final KeyPair masterKey;

    public MasterSeal(KeyPair masterKey) {
        this.masterKey = masterKey;
    }

    public byte[] sign(String label, byte[]... parts) {
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(masterKey.getPrivate());
            feed(s, label, parts);
            return s.sign();
        } catch (GeneralSecurityException e) {
            throw new CryptoException("cannot sign with the master key", e);
        }
    }

    /** False for a wrong, missing or garbage signature; never an exception. */
    public boolean verify(byte[] sig, String label, byte[]... parts) {
        if (sig == null) {
            return false;
        }
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initVerify(masterKey.getPublic());
            feed(s, label, parts);
            return s.verify(sig);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    public byte[] seal(byte[] secret) {
        return Rsa.oaepEncrypt(masterKey.getPublic(), secret);
    }

    /** @throws CryptoException when it was not sealed to this master key */
    public byte[] open(byte[] sealed) {
        return Rsa.oaepDecrypt(masterKey.getPrivate(), sealed);
    }

    /** Each part with its length before it, so that no two different lists of parts feed the same bytes. */
    private static void feed(Signature s, String label, byte[]... parts) throws GeneralSecurityException {
        byte[] l = label.getBytes(StandardCharsets.UTF_8);
        s.update(length(l.length));
        s.update(l);
        for (byte[] p : parts) {
            s.update(length(p.length));
            s.update(p);
        }
    }

    private static byte[] length(int n) {
        return new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
