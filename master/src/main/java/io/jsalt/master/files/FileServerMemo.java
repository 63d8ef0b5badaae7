package io.jsalt.master.files;

import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What the file server remembers so a session-key holder cannot make every MWorker re-hash large files or
 * re-walk the roots in a loop: a file's hash by (real path, size, mtime), and a saltenv's listing for a
 * short time ({@link #LISTING_TTL}, so a new file shows within it). Both are bounded LRU maps; thread-safe.
 */
final class FileServerMemo {
    static final Duration LISTING_TTL = Duration.ofSeconds(2);
    private static final int MAX_HASHES = 4096;
    private static final int MAX_LISTINGS = 64;

    /** A file as it was when hashed: a change of size or mtime is a new file. */
    private record Stamp(Path file, long size, FileTime mtime) {}

    /** A listing of these roots (a reloaded file_roots lists afresh). */
    private record ListingKey(String saltenv, List<Path> roots) {}

    private record Listing(List<String> names, long madeAt) {}

    private final LongSupplier nanoTime;
    private final Map<Stamp, String> hashes = lru(MAX_HASHES);
    private final Map<ListingKey, Listing> listings = lru(MAX_LISTINGS);

    /** @param nanoTime a monotonic clock ({@code System::nanoTime}) */
    FileServerMemo(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** The remembered hash of this file in this state, or {@code compute}'s, then remembered. */
    <E extends Exception> String hash(Path file, long size, FileTime mtime, HashComputation<E> compute) throws E {
        Stamp stamp = new Stamp(file, size, mtime);
        synchronized (hashes) {
            String known = hashes.get(stamp);
            if (known != null) {
                return known;
            }
        }
        String computed = compute.hash(); // outside the lock: other files hash meanwhile
        synchronized (hashes) {
            hashes.put(stamp, computed);
        }
        return computed;
    }

    /** The listing of these roots made less than {@link #LISTING_TTL} ago, else {@code walk}'s, remembered. */
    List<String> listing(String saltenv, List<Path> roots, Supplier<List<String>> walk) {
        ListingKey key = new ListingKey(saltenv, List.copyOf(roots));
        long now = nanoTime.getAsLong();
        synchronized (listings) {
            Listing known = listings.get(key);
            if (known != null && now - known.madeAt() < LISTING_TTL.toNanos()) {
                return known.names();
            }
        }
        List<String> names = List.copyOf(walk.get());
        synchronized (listings) {
            listings.put(key, new Listing(names, now));
        }
        return names;
    }

    @FunctionalInterface
    interface HashComputation<E extends Exception> {
        String hash() throws E;
    }

    private static <K, V> Map<K, V> lru(int max) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > max;
            }
        };
    }
}
