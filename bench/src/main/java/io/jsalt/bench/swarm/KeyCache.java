package io.jsalt.bench.swarm;

import io.jsalt.crypto.RsaKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * The swarm's minion key pairs, generated once and kept between runs ({@code <cache>/keys/<id>.pem|.pub}, and
 * each key's tok, {@code <id>.tok}, once a light minion has made it):
 * a 2048-bit RSA key takes about 100 ms to make, so 10,000 of them would cost every run minutes.
 * Ids are {@code bench-00000}, {@code bench-00001}, ...
 */
public final class KeyCache {
    private final Path dir;

    public KeyCache(Path cacheDir) {
        this.dir = cacheDir.resolve("keys");
    }

    /** The folder named by JSALT_BENCH_CACHE, else ~/.cache/jsalt-bench. */
    public static Path defaultCacheDir() {
        String env = System.getenv("JSALT_BENCH_CACHE");
        return env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".cache", "jsalt-bench");
    }

    public static String id(int index) {
        return String.format(Locale.ROOT, "bench-%05d", index);
    }

    public static List<String> ids(int first, int count) {
        return IntStream.range(first, first + count).mapToObj(KeyCache::id).toList();
    }

    public Path privateKey(String id) {
        return dir.resolve(id + ".pem");
    }

    public Path publicKey(String id) {
        return dir.resolve(id + ".pub");
    }

    /** Where a light minion keeps its key's tok, as a jsalt-minion does in its pki_dir ({@link io.jsalt.crypto.MinionTok}). */
    public Path tok(String id) {
        return dir.resolve(id + ".tok");
    }

    /** Makes the missing key pairs of {@code bench-00000 .. count-1} on {@code threads} threads; returns how many were made. */
    public int ensure(int count, int threads) {
        AtomicInteger made = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
            Files.createDirectories(dir);
            List<Future<?>> work = IntStream.range(0, count).mapToObj(KeyCache::id)
                    .filter(id -> !Files.exists(publicKey(id)))
                    .<Future<?>>map(id -> pool.submit(() -> {
                        generate(id);
                        made.incrementAndGet();
                    }))
                    .toList();
            for (Future<?> f : work) {
                f.get();
            }
            return made.get();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot make the swarm's keys: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
    }

    private void generate(String id) {
        KeyPair pair = RsaKeys.generate();
        try {
            // the public file last, through a rename: its presence says the pair is complete
            Files.writeString(privateKey(id), RsaKeys.privateKeyPem(pair.getPrivate()), StandardCharsets.US_ASCII);
            Path tmp = dir.resolve(id + ".pub.tmp");
            Files.writeString(tmp, RsaKeys.publicKeyPem(pair.getPublic()), StandardCharsets.US_ASCII);
            Files.move(tmp, publicKey(id), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the public keys of {@code ids} into a master's accepted folder ({@code pki_dir/minions/<id>}). */
    public void preAccept(Path masterPkiDir, List<String> ids) {
        try {
            Path accepted = masterPkiDir.resolve("minions");
            Files.createDirectories(accepted);
            for (String id : ids) {
                Files.copy(publicKey(id), accepted.resolve(id), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Main for pre-generating keys: {@code KeyCache <count> [threads]}. */
    public static void main(String[] args) {
        int count = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int made = new KeyCache(defaultCacheDir()).ensure(count, threads);
        System.out.println("made " + made + " key pairs under " + defaultCacheDir().resolve("keys"));
    }
}
