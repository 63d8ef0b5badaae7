package io.jsalt.master.keys;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.transport.message.MinionId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The master's pki folder, laid out as Salt's: {@code minions/}, {@code minions_pre/},
 * {@code minions_rejected/}, {@code minions_denied/}, {@code minions_autosign/}, one public-key file per
 * minion id. Every change is an atomic rename, so a crash never leaves a half-written key, and the master
 * and {@code jsalt-key} can work on it at the same time. Every path comes from {@link MinionId#resolveIn}.
 */
public final class KeyStore implements MinionKeys {
    private static final int MAX_PARSED_KEYS = 100_000;
    private static final String FILE_IDENTITY = "unix:ino,size,ctime";
    private final Path pkiDir;
    private final Map<String, ParsedKey> parsedAccepted = new ConcurrentHashMap<>();
    private final SigningPins signingPins;

    public KeyStore(Path pkiDir) {
        this.pkiDir = pkiDir;
        this.signingPins = new SigningPins(pkiDir);
        try {
            createPrivateDir(pkiDir);
            for (KeyState s : KeyState.values()) {
                createPrivateDir(pkiDir.resolve(s.folder()));
            }
            createPrivateDir(pkiDir.resolve("minions_autosign"));
            createPrivateDir(signingPins.dir());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare pki folder " + pkiDir, e);
        }
    }

    @Override
    public Path pkiDir() {
        return pkiDir;
    }

    @Override
    public Optional<KeyState> stateOf(String id) {
        for (KeyState s : KeyState.values()) {
            if (Files.isRegularFile(file(s, id))) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /**
     * The state and key of an id, read together so a concurrent accept/reject (an atomic rename
     * between folders) cannot pair one state with another's file. A key caught mid-rename is looked
     * for once more before the id counts as unknown.
     */
    @Override
    public Optional<StoredKey> lookup(String id) {
        for (int pass = 0; pass < 2; pass++) {
            for (KeyState s : KeyState.values()) {
                Optional<String> pem = pem(s, id);
                if (pem.isPresent()) {
                    return Optional.of(new StoredKey(s, pem.get()));
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<String> pem(KeyState state, String id) {
        Path f = file(state, id);
        try {
            return Optional.of(Files.readString(f, StandardCharsets.UTF_8));
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f, e);
        }
    }

    /**
     * The accepted key of an id, parsed; empty when the id is not accepted or its file is unreadable.
     * Every return and event asks, so the parsed key is kept while the file stays the same: one stat per
     * call instead of a read and a parse. "The same" is inode, size and ctime, which every write, rename
     * and attribute change moves and no user-space call can set back (mtime can be, by cp -p or touch).
     */
    @Override
    public Optional<PublicKey> acceptedKey(String id) {
        ParsedKey cached = parsedAccepted.get(id);
        // the file is looked at on every call (a key deleted or replaced a moment ago is not trusted); only its path,
        // validated and joined when the key was first read, is kept
        Path f = cached != null ? cached.file() : file(KeyState.ACCEPTED, id);
        FileIdentity identity;
        try {
            identity = FileIdentity.of(Files.readAttributes(f, FILE_IDENTITY));
        } catch (IOException e) {
            parsedAccepted.remove(id);
            return Optional.empty();
        }
        if (cached != null && cached.identity().equals(identity)) {
            return Optional.of(cached.key());
        }
        try {
            Optional<PublicKey> key = pem(KeyState.ACCEPTED, id).map(RsaKeys::parsePublicKey);
            if (key.isPresent()) {
                if (parsedAccepted.size() >= MAX_PARSED_KEYS) {
                    parsedAccepted.clear(); // deleted ids leave entries behind; a rare full reset bounds them
                }
                parsedAccepted.put(id, new ParsedKey(f, identity, key.get()));
            }
            return key;
        } catch (CryptoException e) {
            return Optional.empty();
        }
    }

    /** A parsed key, the file it was read from and that file's identity, taken before the read. */
    private record ParsedKey(Path file, FileIdentity identity, PublicKey key) {}

    /**
     * What tells one key file from another at the same path: a rename (every change here and by {@code jsalt-key}
     * is one) gives a new inode, a write in place a new size or ctime. Three fields compared, not two maps.
     */
    private record FileIdentity(Object inode, Object size, Object ctime) {
        static FileIdentity of(Map<String, Object> attributes) {
            return new FileIdentity(attributes.get("ino"), attributes.get("size"), attributes.get("ctime"));
        }
    }

    @Override
    public void store(KeyState state, String id, String pem) {
        writeAtomically(file(state, id), pem);
    }

    /** One master owns this folder, so looking and then writing is enough here (jsalt-key changes go through it). */
    @Override
    public boolean storeIfNew(KeyState state, String id, String pem) {
        Optional<KeyState> now = stateOf(id);
        if (now.isPresent() && now.get() != KeyState.DENIED) {
            return false;
        }
        store(state, id, pem);
        return true;
    }

    @Override
    public boolean move(String id, KeyState from, KeyState to) {
        Path src = file(from, id);
        if (!Files.isRegularFile(src)) {
            return false;
        }
        try {
            Files.move(src, file(to, id), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (java.nio.file.NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move key of " + id, e);
        }
    }

    @Override
    public SigningPins signingPins() {
        return signingPins;
    }

    /** Removes every key file of the id, in every state, and its signing pin; returns the states it was in. */
    @Override
    public List<KeyState> delete(String id) {
        signingPins.drop(id);
        List<KeyState> removed = new ArrayList<>();
        for (KeyState s : KeyState.values()) {
            try {
                if (Files.deleteIfExists(file(s, id))) {
                    removed.add(s);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete key of " + id, e);
            }
        }
        return removed;
    }

    @Override
    public List<String> list(KeyState state) {
        try (Stream<Path> files = Files.list(pkiDir.resolve(state.folder()))) {
            return files.filter(Files::isRegularFile)
                    .map(p -> p.getFileName().toString())
                    .filter(MinionId::isValid)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + state.folder(), e);
        }
    }

    private Path file(KeyState state, String id) {
        return MinionId.resolveIn(pkiDir.resolve(state.folder()), id);
    }

    private static void createPrivateDir(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
    }

    static void writeAtomically(Path target, String content) {
        Path tmp = null;
        try {
            tmp = Files.createTempFile(target.getParent(), ".tmp-", ".key",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the move succeeded or the write failed; either way nothing more to clean
                }
            }
        }
    }
}
