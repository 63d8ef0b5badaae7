package io.jsalt.minion.channel;

import io.jsalt.crypto.CryptoException;

/**
 * The master does not speak this minion's session key any more: it answered Salt's "bad load", or its
 * encrypted answer fails the session key's HMAC. Only this failure is worth signing in again for; any
 * other problem with an answer would come back unchanged under a new session.
 */
public final class StaleSessionException extends CryptoException {
    public StaleSessionException(String message) {
        super(message);
    }
}
