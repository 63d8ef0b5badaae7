package io.jsalt.master.jobs.pg;

import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobCacheException;
import io.jsalt.master.jobs.JobReturn;
import io.jsalt.transport.codec.SaltPack;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the master accepted while its database was away: one file per job or return in
 * {@code cachedir/pg-spool} (0700, files 0600), written to a temporary name, fsynced and renamed, so a
 * master that crashes keeps every record it said it had. Named by a sequence, so they are written to the
 * database in the order they came. Bounded by bytes; past the bound a write is refused and its sender
 * retries (a minion from its outbox). Used only by the job cache's writer thread, but {@link #isEmpty}.
 *
 * <p>The folder is listed once, at open; from then on an index in memory (file, size, and the job, or the
 * return's jid) says what is queued in which order, so writing back and answering reads during an outage
 * read only the files they need. A record the database refuses for good is moved aside to
 * {@code cachedir/pg-quarantine/} ({@link #quarantine}), so it no longer holds back the ones after it.
 */
final class Spool {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Spool.class);
    private static final String JOB = ".job";
    private static final String RETURN = ".ret";

    private final Path dir;
    private final long maxBytes;
    private long bytes;
    private long nextSeq;
    /** Written by the owning thread only; volatile so that readers can ask "anything queued?" without it. */
    private volatile int count;
    /** What is queued, oldest first: for a job the job itself (jobs are small), for a return its jid. */
    private final java.util.TreeMap<Long, Indexed> index = new java.util.TreeMap<>();

    private record Indexed(Path file, long size, Job job, String returnJid) {}

    private Spool(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
    }

    /** A spool over {@code dir}, with what an earlier run left in it. */
    static Spool open(Path dir, long maxBytes) {
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            Spool spool = new Spool(dir, maxBytes);
            long last = 0;
            for (Path p : files(dir)) {
                long size = Files.size(p);
                Object record;
                try {
                    record = decode(p);
                } catch (IOException | RuntimeException e) {
                    LOG.error("job cache: queued record {} does not read ({}); set aside as {}", p, e.toString(),
                            spool.setAside(p, "it does not read (" + e + ")"));
                    continue;
                }
                spool.remember(seq(p), p, size, record);
                last = Math.max(last, seq(p));
            }
            spool.nextSeq = last + 1;
            try (Stream<Path> tmp = Files.list(dir)) {
                for (Path p : tmp.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList()) {
                    Files.delete(p); // never renamed: its write was never acknowledged
                }
            }
            return spool;
        } catch (IOException e) {
            throw new JobCacheException("cannot open the job cache spool " + dir + ": " + e.getMessage(), e);
        }
    }

    private void remember(long seq, Path file, long size, Object record) {
        index.put(seq, record instanceof Job j ? new Indexed(file, size, j, null)
                : new Indexed(file, size, null, ((JobReturn) record).jid()));
        bytes += size;
        count++;
    }

    /** The jobs queued, oldest first, from memory. */
    List<Job> jobs() {
        return index.values().stream().filter(i -> i.job() != null).map(Indexed::job).toList();
    }

    /** The returns queued for {@code jid}, oldest first: only their files are read. */
    List<JobReturn> returns(String jid) {
        List<JobReturn> out = new ArrayList<>();
        for (Indexed i : index.values()) {
            if (jid.equals(i.returnJid())) {
                try {
                    out.add((JobReturn) decode(i.file()));
                } catch (IOException e) {
                    throw new JobCacheException("cannot read the job cache spool " + dir + ": " + e.getMessage(), e);
                }
            }
        }
        return out;
    }

    /** The folder where refused records are set aside: {@code cachedir/pg-quarantine}. */
    Path quarantineDir() {
        return dir.resolveSibling("pg-quarantine");
    }

    /**
     * Moves a record the database refuses for good out of the queue, into {@link #quarantineDir} (0700, the file
     * kept as it was, 0600), so the records after it are written; returns where it went.
     */
    Path quarantine(Entry e, String reason) {
        Path moved = setAside(e.file(), reason);
        index.remove(seq(e.file()));
        bytes -= e.size();
        count--;
        return moved;
    }

    private Path setAside(Path file, String reason) {
        Path aside = quarantineDir();
        try {
            Files.createDirectories(aside, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path target = aside.resolve(file.getFileName());
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(aside.resolve(file.getFileName() + ".why"), reason + "\n");
            return target;
        } catch (IOException ex) {
            throw new JobCacheException("cannot set " + file + " aside in " + aside + ": " + ex.getMessage(), ex);
        }
    }

    boolean isEmpty() {
        return count == 0;
    }

    int count() {
        return count;
    }

    long bytes() {
        return bytes;
    }

    long maxBytes() {
        return maxBytes;
    }

    Path dir() {
        return dir;
    }

    void add(Job job) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jid", job.jid());
        m.put("fun", job.fun());
        m.put("arg", job.arg());
        m.put("tgt", job.tgt());
        m.put("tgt_type", job.tgtType());
        m.put("user", job.user());
        m.put("minions", job.minions());
        m.put("started", nanos(job.started()));
        write(m, JOB, job);
    }

    void add(JobReturn ret) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jid", ret.jid());
        m.put("id", ret.id());
        m.put("ret", ret.ret());
        m.put("retcode", (long) ret.retcode());
        m.put("success", ret.success());
        m.put("received", nanos(ret.received()));
        m.put("verified", ret.verified());
        write(m, RETURN, ret);
    }

    /**
     * The oldest records, at most {@code limit}, each a {@link Job} or a {@link JobReturn}. A file that no
     * longer reads (damaged on disk) is set aside in the quarantine at once, with an ERROR, rather than block
     * the rest.
     */
    List<Entry> oldest(int limit) {
        List<Entry> out = new ArrayList<>();
        for (Map.Entry<Long, Indexed> e : List.copyOf(index.entrySet())) {
            if (out.size() == limit) {
                break;
            }
            Indexed i = e.getValue();
            Object record;
            try {
                record = i.job() != null ? i.job() : decode(i.file());
            } catch (IOException | RuntimeException ex) {
                Entry bad = new Entry(i.file(), i.size(), null);
                Path moved = quarantine(bad, "it no longer reads (" + ex + ")");
                LOG.error("job cache: queued record {} does not read ({}); set aside as {}", i.file(), ex.toString(), moved);
                continue;
            }
            out.add(new Entry(i.file(), i.size(), record));
        }
        return out;
    }

    /** Forgets records once the database has them. */
    void remove(List<Entry> written) {
        for (Entry e : written) {
            try {
                Files.delete(e.file);
                index.remove(seq(e.file));
                bytes -= e.size;
                count--;
            } catch (IOException ex) {
                throw new JobCacheException("cannot remove " + e.file + " from the job cache spool: " + ex.getMessage(), ex);
            }
        }
    }

    /** One spooled record: a {@link Job} or a {@link JobReturn}. */
    record Entry(Path file, long size, Object record) {
    }

    private void write(Map<String, Object> record, String suffix, Object indexed) {
        byte[] packed = SaltPack.packBinType(record);
        if (bytes + packed.length > maxBytes) {
            throw new JobCacheException("the job cache database is unreachable and its spool " + dir + " is full ("
                    + bytes + " of " + maxBytes + " bytes, master_job_cache_spool_max_bytes): refused");
        }
        Path file = dir.resolve(String.format("%020d", nextSeq) + suffix);
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
                ByteBuffer buf = ByteBuffer.wrap(packed);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true); // the rename itself survives a crash
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the write's failure is the one to report
            }
            throw new JobCacheException("cannot write to the job cache spool " + dir + ": " + e.getMessage(), e);
        }
        remember(nextSeq, file, packed.length, indexed);
        nextSeq++;
    }

    @SuppressWarnings("unchecked")
    private static Object decode(Path p) throws IOException {
        Map<String, Object> m = (Map<String, Object>) SaltPack.unpack(Files.readAllBytes(p));
        if (p.getFileName().toString().endsWith(JOB)) {
            List<String> minions = null;
            if (m.get("minions") instanceof List<?> l) {
                minions = new ArrayList<>();
                for (Object o : l) {
                    minions.add(String.valueOf(o));
                }
            }
            return new Job((String) m.get("jid"), (String) m.get("fun"), (List<Object>) m.get("arg"), m.get("tgt"),
                    (String) m.get("tgt_type"), (String) m.get("user"), minions, instant(((Number) m.get("started")).longValue()));
        }
        return new JobReturn((String) m.get("jid"), (String) m.get("id"), m.get("ret"),
                ((Number) m.get("retcode")).intValue(), (Boolean) m.get("success"), instant(((Number) m.get("received")).longValue()),
                (Boolean) m.get("verified"));
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> all = Files.list(dir)) {
            return all.filter(p -> {
                String n = p.getFileName().toString();
                return n.matches("[0-9]{20}\\.(job|ret)");
            }).sorted().toList();
        }
    }

    private static long seq(Path p) {
        return Long.parseLong(p.getFileName().toString().substring(0, 20));
    }

    private static long nanos(Instant at) {
        return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000_000L), at.getNano());
    }

    private static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }
}
