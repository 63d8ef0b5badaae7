package io.jsalt.minion.testing;

import io.jsalt.transport.message.WirePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The master side of the C4 file-server commands over a folder ({@code root/<saltenv>/<path>}), for tests:
 * {@code _file_list}, {@code _file_hash} (sha256, "" when missing) and {@code _serve_file} in fixed chunks.
 * It refuses and normalises paths as the real master does (master.files.FileServer and SafePath): a list
 * prefix loses its leading and trailing '/'; a file path must have {@link WirePath}'s form and, symlinks
 * resolved, stay inside the saltenv's folder, else it is missing; a saltenv that is not one plain folder
 * name holds nothing. It counts the chunks it served.
 */
public final class FakeFileServer {
    private final Path root;
    private final int chunk;
    private final AtomicInteger chunksServed = new AtomicInteger();

    public FakeFileServer(Path root) {
        this(root, 262_144);
    }

    public FakeFileServer(Path root, int chunk) {
        this.root = root;
        this.chunk = chunk;
    }

    public int chunksServed() {
        return chunksServed.get();
    }

    /** The decrypted answer to one file-server load. */
    public Object answer(Map<String, Object> load) {
        Path env = env(load.get("saltenv"));
        try {
            switch (String.valueOf(load.get("cmd"))) {
                case "_file_list" -> {
                    if (env == null || !Files.isDirectory(env)) {
                        return List.of();
                    }
                    String prefix = strip(String.valueOf(load.getOrDefault("prefix", "")));
                    try (Stream<Path> walk = Files.walk(env)) {
                        return walk.filter(Files::isRegularFile).map(p -> env.relativize(p).toString().replace('\\', '/'))
                                .filter(p -> p.startsWith(prefix)).sorted().toList();
                    }
                }
                case "_file_envs" -> {
                    try (Stream<Path> envs = Files.list(root)) {
                        return envs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
                    }
                }
                case "_file_hash" -> {
                    Optional<Path> file = find(env, load.get("path"));
                    if (file.isEmpty()) {
                        return "";
                    }
                    Map<String, Object> hash = new LinkedHashMap<>();
                    hash.put("hsum", sha256(Files.readAllBytes(file.get())));
                    hash.put("hash_type", "sha256");
                    return hash;
                }
                case "_serve_file" -> {
                    Optional<Path> file = find(env, load.get("path"));
                    Map<String, Object> reply = new LinkedHashMap<>();
                    if (file.isEmpty() || !(load.get("loc") instanceof Number loc) || loc.longValue() < 0) {
                        reply.put("data", "");
                        reply.put("dest", "");
                        return reply;
                    }
                    byte[] all = Files.readAllBytes(file.get());
                    int from = (int) Math.min(loc.longValue(), all.length);
                    byte[] data = Arrays.copyOfRange(all, from, Math.min(all.length, from + chunk));
                    chunksServed.incrementAndGet();
                    reply.put("data", data);
                    reply.put("dest", load.get("path"));
                    return reply;
                }
                default -> {
                    return false;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The saltenv's folder; null for none, or a name that is not one plain folder name (never configured). */
    private Path env(Object saltenv) {
        if (root == null || !(saltenv instanceof String name) || !WirePath.isValid(name) || name.contains("/")) {
            return null;
        }
        return root.resolve(name);
    }

    /** The real regular file a wire path names inside env, as the master's SafePath.join; empty otherwise. */
    private static Optional<Path> find(Path env, Object path) {
        if (env == null || !(path instanceof String wirePath) || !WirePath.isValid(wirePath)) {
            return Optional.empty();
        }
        try {
            Path realEnv = env.toRealPath();
            Path real = realEnv.resolve(wirePath).toRealPath();
            return real.startsWith(realEnv) && Files.isRegularFile(real) ? Optional.of(real) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The master ignores leading and trailing '/' of a list prefix. */
    private static String strip(String prefix) {
        int start = 0;
        int end = prefix.length();
        while (start < end && prefix.charAt(start) == '/') {
            start++;
        }
        while (end > start && prefix.charAt(end - 1) == '/') {
            end--;
        }
        return prefix.substring(start, end);
    }

    public static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
