package io.jsalt.master.keys;

import io.jsalt.crypto.Fingerprint;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The minions' public keys and where each stands (accepted, pending, rejected, denied): Salt's pki folder for
 * one master ({@link KeyStore}), or a table shared by every master of a cluster
 * ({@code io.jsalt.master.cluster.PgKeyStore}). An id may hold a key in more than one state at once (an
 * accepted key and the different key it was denied for), as in Salt's folders.
 */
public interface MinionKeys {
    /** An id's key as read in one pass: its state and the PEM held in that state. */
    record StoredKey(KeyState state, String pem) {}

    /** The master's pki folder (its own key pair, signing pins), whatever holds the minions' keys. */
    Path pkiDir();

    /** The state of an id's key, checked in Salt's order: accepted, pending, rejected, denied. */
    Optional<KeyState> stateOf(String id);

    /** The state and key of an id, read together so a concurrent change cannot pair one state with another's key. */
    Optional<StoredKey> lookup(String id);

    Optional<String> pem(KeyState state, String id);

    /** The accepted key of an id, parsed; empty when the id is not accepted or its key does not parse. */
    Optional<PublicKey> acceptedKey(String id);

    /** Puts {@code pem} in {@code state} for {@code id}, replacing a key in that state. */
    void store(KeyState state, String id, String pem);

    /**
     * Puts a key first seen at sign-in, unless the id already has a key accepted, pending or rejected (another
     * master saw it first, or an operator acted meanwhile); false then, and nothing is written.
     */
    boolean storeIfNew(KeyState state, String id, String pem);

    /** Moves a key between states; false when it was not in {@code from}. */
    boolean move(String id, KeyState from, KeyState to);

    /** Which accepted minions have proved they sign; a pin goes when the key is deleted. */
    SigningPins signingPins();

    /** Removes the id's key in every state, and its signing pin; returns the states it was in. */
    List<KeyState> delete(String id);

    /** The ids in {@code state}, sorted. */
    List<String> list(KeyState state);

    default Map<KeyState, List<String>> listAll() {
        Map<KeyState, List<String>> all = new EnumMap<>(KeyState.class);
        for (KeyState s : KeyState.values()) {
            all.put(s, list(s));
        }
        return all;
    }

    default Optional<String> fingerprint(KeyState state, String id) {
        return pem(state, id).map(Fingerprint::sha256);
    }
}
