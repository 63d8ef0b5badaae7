package io.jsalt.master.jobs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A job cache in memory: enough to gather returns and refuse duplicates while the master runs. It does
 * not survive a restart; the durable embedded store comes with the CLI's job features.
 */
public final class MemoryJobCache implements JobCache {
    private final Map<String, Job> jobs = new ConcurrentHashMap<>();
    private final Map<String, Map<String, JobReturn>> returns = new ConcurrentHashMap<>();

    @Override
    public void saveJob(Job job) {
        jobs.put(job.jid(), job);
    }

    @Override
    public Optional<Job> job(String jid) {
        return Optional.ofNullable(jobs.get(jid));
    }

    @Override
    public List<Job> jobsBetween(String firstJid, String lastJid) {
        return jobs.values().stream()
                .filter(j -> firstJid == null || j.jid().compareTo(firstJid) >= 0)
                .filter(j -> lastJid == null || j.jid().compareTo(lastJid) <= 0)
                .sorted(java.util.Comparator.comparing(Job::jid))
                .toList();
    }

    @Override
    public boolean saveReturn(JobReturn ret) {
        Map<String, JobReturn> byMinion = returns.computeIfAbsent(ret.jid(), k -> new LinkedHashMap<>());
        synchronized (byMinion) {
            return byMinion.putIfAbsent(ret.id(), ret) == null;
        }
    }

    @Override
    public List<JobReturn> returns(String jid) {
        Map<String, JobReturn> byMinion = returns.get(jid);
        if (byMinion == null) {
            return List.of();
        }
        synchronized (byMinion) {
            return new ArrayList<>(byMinion.values());
        }
    }

    @Override
    public boolean hasReturn(String jid, String id) {
        Map<String, JobReturn> byMinion = returns.get(jid);
        if (byMinion == null) {
            return false;
        }
        synchronized (byMinion) {
            return byMinion.containsKey(id);
        }
    }

    @Override
    public int trimReturnsPerMinion(int max) {
        Map<String, List<JobReturn>> byMinion = new java.util.HashMap<>();
        for (Map<String, JobReturn> perJob : returns.values()) {
            synchronized (perJob) {
                for (JobReturn r : perJob.values()) {
                    byMinion.computeIfAbsent(r.id(), k -> new ArrayList<>()).add(r);
                }
            }
        }
        int forgotten = 0;
        for (List<JobReturn> rs : byMinion.values()) {
            if (rs.size() <= max) {
                continue;
            }
            rs.sort(java.util.Comparator.comparing(JobReturn::received).thenComparing(JobReturn::jid).reversed());
            for (JobReturn old : rs.subList(max, rs.size())) {
                Map<String, JobReturn> perJob = returns.get(old.jid());
                if (perJob != null) {
                    synchronized (perJob) {
                        forgotten += perJob.remove(old.id()) != null ? 1 : 0;
                    }
                }
            }
        }
        return forgotten;
    }

    @Override
    public void prune(Instant cutoff) {
        jobs.values().removeIf(j -> j.started().isBefore(cutoff));
        returns.keySet().removeIf(jid -> !jobs.containsKey(jid));
    }

    @Override
    public void close() {
        jobs.clear();
        returns.clear();
    }
}
