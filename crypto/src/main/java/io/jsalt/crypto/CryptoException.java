package io.jsalt.crypto;

/** Any failure of the crypto layer: bad key material, a primitive that refused its input, an unreadable key file. */
public class CryptoException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CryptoException(String message) {
        super(message);
    }

    public CryptoException(String message, Throwable cause) {
        super(message, cause);
    }
}
