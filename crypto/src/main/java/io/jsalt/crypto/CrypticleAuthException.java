package io.jsalt.crypto;

/**
 * The HMAC of a Crypticle message did not verify: the peer used another session key.
 * Mirrors Salt's {@code AuthenticationError}; callers react by signing in again to learn the current key.
 */
public final class CrypticleAuthException extends CryptoException {
    private static final long serialVersionUID = 1L;

    public CrypticleAuthException(String message) {
        super(message);
    }
}
