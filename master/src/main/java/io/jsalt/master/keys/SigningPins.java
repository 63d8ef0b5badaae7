package io.jsalt.master.keys;

import io.jsalt.transport.message.MinionId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The minions that have proved they sign: once a request of a minion carried a valid signature by its
 * accepted key, jsalt refuses unsigned returns under its id (the trust policy, docs/interop.md). A pin is
 * the file {@code pki_dir/minions_signing/<id>} holding the SHA-256 of the key that signed, so it survives
 * a restart of the master, and it holds only for that key: a key deleted (the file goes with it) or
 * replaced by another key under the same id leaves the id unpinned.
 */
public final class SigningPins {
    static final String FOLDER = "minions_signing";
    private static final int MAX_REMEMBERED = 100_000;

    /** Pins kept with the keys of a cluster, shared by its masters, instead of in files. */
    public interface Shared {
        /** True when {@code id}'s accepted key is the one of {@code keyDigest} and has signed. */
        boolean pinned(String id, String keyDigest);

        /** Pins {@code id} to its accepted key of {@code keyDigest}; true when it was not pinned before. */
        boolean pin(String id, String keyDigest);
    }

    private final Path dir;
    /** The pin file's content per id, as last read or written; an empty value: no file. */
    private final Map<String, Optional<String>> known = new ConcurrentHashMap<>();
    /** Set for a cluster's keys: the pins are theirs, and go with a key's removal. */
    private final Shared shared;

    SigningPins(Path pkiDir) {
        this.dir = pkiDir.resolve(FOLDER);
        this.shared = null;
    }

    private SigningPins(Shared shared) {
        this.dir = null;
        this.shared = shared;
    }

    /** Pins kept by {@code shared} (a cluster's key table), so a minion pinned on one master is pinned on all. */
    public static SigningPins sharedBy(Shared shared) {
        return new SigningPins(shared);
    }

    Path dir() {
        return dir;
    }

    /** True when {@code id} has signed with {@code key}, the key now accepted for it. */
    public boolean pinned(String id, PublicKey key) {
        if (shared != null) {
            return shared.pinned(id, digestOf(id, key));
        }
        return stored(id).map(digestOf(id, key)::equals).orElse(false);
    }

    /** Pins {@code id} to {@code key}; true when it was not pinned to it before. */
    public boolean pin(String id, PublicKey key) {
        String digest = digestOf(id, key);
        if (shared != null) {
            return shared.pin(id, digest);
        }
        if (stored(id).map(digest::equals).orElse(false)) {
            return false;
        }
        KeyStore.writeAtomically(MinionId.resolveIn(dir, id), digest + "\n");
        remember(id, Optional.of(digest));
        return true;
    }

    /** Forgets the pin of {@code id} (its key was deleted). */
    public void drop(String id) {
        if (shared != null) {
            return; // a shared pin lives on the key's row, and goes with it
        }
        try {
            Files.deleteIfExists(MinionId.resolveIn(dir, id));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot drop the signing pin of " + id, e);
        } finally {
            known.remove(id);
        }
    }

    private Optional<String> stored(String id) {
        Optional<String> cached = known.get(id);
        if (cached != null) {
            return cached;
        }
        Path f = MinionId.resolveIn(dir, id);
        Optional<String> read;
        try {
            read = Optional.of(Files.readString(f, StandardCharsets.US_ASCII).strip());
        } catch (NoSuchFileException e) {
            read = Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
        remember(id, read);
        return read;
    }

    private void remember(String id, Optional<String> value) {
        if (known.size() >= MAX_REMEMBERED) {
            known.clear(); // ids of deleted keys leave entries behind; a rare full reset bounds them
        }
        known.put(id, value);
    }

    /** The digest of each id's key as last computed, for the same key object (the key store keeps one per accepted key). */
    private final Map<String, KeyDigest> digests = new ConcurrentHashMap<>();

    private record KeyDigest(PublicKey key, String digest) {}

    /** The key's SHA-256, computed once per key object: every return asks (a DER copy and a hash per return). */
    private String digestOf(String id, PublicKey key) {
        KeyDigest d = digests.get(id);
        if (d != null && d.key() == key) {
            return d.digest();
        }
        if (digests.size() >= MAX_REMEMBERED) {
            digests.clear();
        }
        String digest = digestOf(key);
        digests.put(id, new KeyDigest(key, digest));
        return digest;
    }

    /** The SHA-256 of a key's encoding, in hex: what a pin names. */
    public static String digestOf(PublicKey key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getEncoded()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
