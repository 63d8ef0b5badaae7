package io.jsalt.minion.auth;

import io.jsalt.crypto.Crypticle;
import io.jsalt.transport.message.ReturnMac;
import java.security.PublicKey;

/**
 * What a successful sign-in yields: the session key, the master's verified key, where to subscribe, and the
 * secret this minion's returns are MACed with under this sign-in ({@code returnMac}; null from a salt-master,
 * whose minions sign their returns instead).
 */
public record Session(Crypticle crypticle, PublicKey masterKey, int publishPort, ReturnMac returnMac) {
    /** A session without a return secret (a salt-master's): returns are signed. */
    public Session(Crypticle crypticle, PublicKey masterKey, int publishPort) {
        this(crypticle, masterKey, publishPort, null);
    }
}
