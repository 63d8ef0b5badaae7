package io.jsalt.minion.files;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.MasterFiles;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.UnsafePathException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The master's file server through the minion's encrypted request channel (Salt's RemoteClient, the
 * {@code _file_list}, {@code _file_hash} and {@code _serve_file} commands). Files land in
 * {@code cachedir/files/<saltenv>/<path>} ({@link CachePath}), are checked against the master's sha256 and
 * replace the cached copy atomically; a cached copy whose hash still matches is not fetched again.
 */
public final class RemoteMasterFiles implements MasterFiles {
    /** A bound on one file, so a confused or hostile master cannot fill the disk through one request loop. */
    static final long MAX_FILE_BYTES = 1L << 31;

    private final Function<Map<String, Object>, Object> requests;
    private final Path cacheRoot;

    /**
     * @param requests sends one aes load to the master and returns its decrypted answer (the minion's
     *                 {@code MasterChannel::send}); may throw when the master cannot be reached
     * @param cacheRoot {@code cachedir/files}
     */
    public RemoteMasterFiles(Function<Map<String, Object>, Object> requests, Path cacheRoot) {
        this.requests = requests;
        this.cacheRoot = cacheRoot;
    }

    @Override
    public List<String> list(String prefix, String saltenv) {
        String env = saltenvOrBase(saltenv);
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "_file_list");
        load.put("saltenv", env);
        load.put("prefix", prefix == null ? "" : prefix);
        Object answer = ask(load);
        if (!(answer instanceof List<?> entries)) {
            throw new CommandExecutionException("the master's file list for " + env + " is not a list");
        }
        List<String> files = new ArrayList<>();
        for (Object entry : entries) {
            if (entry instanceof String name) {
                files.add(name);
            }
        }
        return files;
    }

    @Override
    public Path cache(String saltUrl, String saltenv) {
        SaltUrl url = SaltUrl.parse(saltUrl, saltenv);
        String expected = masterSha256(url);
        if (expected == null) {
            throw new CommandExecutionException("file " + url + " is not on the master");
        }
        try {
            Path dest = CachePath.resolveForWrite(cacheRoot.resolve(url.saltenv()), url.path());
            if (Files.isRegularFile(dest) && expected.equals(sha256(dest))) {
                return dest;
            }
            fetch(url, dest, expected);
            return dest;
        } catch (UnsafePathException e) {
            throw new CommandExecutionException("cannot cache " + url + ": " + e.getMessage());
        } catch (IOException e) {
            throw new CommandExecutionException("cannot cache " + url + ": " + e);
        }
    }

    @Override
    public List<String> envs() {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "_file_envs");
        Object answer = ask(load);
        if (!(answer instanceof List<?> entries)) {
            throw new CommandExecutionException("the master's list of saltenvs is not a list");
        }
        List<String> envs = new ArrayList<>();
        for (Object entry : entries) {
            if (entry instanceof String name) {
                envs.add(name);
            }
        }
        return envs;
    }

    @Override
    public Map<String, Object> masterOpts() {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "_master_opts");
        if (!(ask(load) instanceof Map<?, ?> answer)) {
            throw new CommandExecutionException("the master's options are not a dictionary");
        }
        Map<String, Object> opts = new LinkedHashMap<>();
        answer.forEach((k, v) -> opts.put(String.valueOf(k), v));
        return opts;
    }

    @Override
    public Optional<FileHash> hash(String saltUrl, String saltenv) {
        return Optional.ofNullable(masterHash(SaltUrl.parse(saltUrl, saltenv)));
    }

    /** The master's hash of the file; null when it has no such file ("" in Salt's answer). */
    private FileHash masterHash(SaltUrl url) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "_file_hash");
        load.put("path", url.path());
        load.put("saltenv", url.saltenv());
        Object answer = ask(load);
        if (!(answer instanceof Map<?, ?> m) || !(m.get("hsum") instanceof String hsum) || hsum.isEmpty()) {
            return null;
        }
        return new FileHash(hsum.toLowerCase(java.util.Locale.ROOT), String.valueOf(m.get("hash_type")));
    }

    /** The master's sha256 of the file; null when it has no such file. */
    private String masterSha256(SaltUrl url) {
        FileHash hash = masterHash(url);
        if (hash == null) {
            return null;
        }
        if (!"sha256".equals(hash.hashType())) {
            throw new CommandExecutionException("the master hashes " + url + " with " + hash.hashType() + ", not sha256");
        }
        return hash.hsum();
    }

    private void fetch(SaltUrl url, Path dest, String expected) throws IOException {
        Path tmp = Files.createTempFile(dest.getParent(), "." + dest.getFileName(), ".part");
        try {
            MessageDigest digest = newSha256();
            try (OutputStream out = new DigestOutputStream(Files.newOutputStream(tmp), digest)) {
                long loc = 0;
                while (true) {
                    byte[] chunk = chunk(url, loc);
                    if (chunk.length == 0) {
                        break;
                    }
                    loc += chunk.length;
                    if (loc > MAX_FILE_BYTES) {
                        throw new CommandExecutionException(url + " is larger than " + MAX_FILE_BYTES + " bytes");
                    }
                    out.write(chunk);
                }
            }
            String actual = HexFormat.of().formatHex(digest.digest());
            if (!actual.equals(expected)) {
                // the file changed on the master while it was read, or the transfer went wrong: keep the old copy
                throw new CommandExecutionException("hash mismatch for " + url + ": expected " + expected + ", got " + actual);
            }
            try {
                Files.move(tmp, dest, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dest, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private byte[] chunk(SaltUrl url, long loc) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "_serve_file");
        load.put("path", url.path());
        load.put("loc", loc);
        load.put("saltenv", url.saltenv());
        Object answer = ask(load);
        if (!(answer instanceof Map<?, ?> m)) {
            throw new CommandExecutionException("the master's answer for " + url + " is not a file chunk");
        }
        Object data = m.get("data");
        if (data == null) {
            return new byte[0];
        }
        return Wire.asBytes(data);
    }

    private Object ask(Map<String, Object> load) {
        try {
            return requests.apply(load);
        } catch (CommandExecutionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CommandExecutionException("the master's file server did not answer: " + e.getMessage());
        }
    }

    static String sha256(Path file) throws IOException {
        MessageDigest digest = newSha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[65536];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks SHA-256", e);
        }
    }

    private static String saltenvOrBase(String saltenv) {
        String env = saltenv == null || saltenv.isEmpty() ? "base" : saltenv;
        try {
            return CachePath.requireSaltenv(env);
        } catch (UnsafePathException e) {
            throw new CommandExecutionException(e.getMessage());
        }
    }
}
