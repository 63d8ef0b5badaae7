package io.jsalt.master.jobs.pg;

import io.jsalt.master.jobs.Job;
import io.jsalt.master.jobs.JobReturn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Jobs and returns as rows of Salt's pgjsonb tables: a job's load in {@code jids.load} with the keys Salt's
 * load has, a return in {@code salt_returns} with Salt's {@code full_ret} ({@code fun}, {@code jid},
 * {@code id}, {@code return}, {@code retcode}, {@code success}). PostgreSQL keeps microseconds, so times
 * are cut to microseconds on the way in.
 */
final class PgRows {
    private static final String UPSERT_JOB = "INSERT INTO jids (jid, load, started) VALUES (?, ?::jsonb, ?)"
            + " ON CONFLICT (jid) DO UPDATE SET load = EXCLUDED.load, started = EXCLUDED.started";
    // fun comes from the job's load when the master knows the job; a return may come first (or alone)
    private static final String INSERT_RETURN = "INSERT INTO salt_returns"
            + " (fun, jid, return, id, success, full_ret, alter_time, retcode, verified)"
            + " SELECT left(f.fun, 50), ?, r.v, ?, ?, jsonb_build_object('fun', f.fun, 'jid', ?, 'id', ?, 'return', r.v,"
            + " 'retcode', ?, 'success', ?), ?, ?, ?"
            + " FROM (SELECT COALESCE((SELECT load->>'fun' FROM jids WHERE jid = ?), '') AS fun) f, (SELECT ?::jsonb AS v) r"
            + " ON CONFLICT (jid, id) DO NOTHING";
    private static final String SELECT_JOB = "SELECT jid, load, started FROM jids";

    private PgRows() {
    }

    static PreparedStatement upsertJob(Connection c) throws SQLException {
        return c.prepareStatement(UPSERT_JOB);
    }

    static void bind(PreparedStatement s, Job job) throws SQLException {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("jid", job.jid());
        load.put("fun", job.fun());
        load.put("arg", job.arg());
        load.put("tgt", job.tgt());
        load.put("tgt_type", job.tgtType());
        load.put("user", job.user());
        load.put("minions", job.minions());
        s.setString(1, job.jid());
        s.setString(2, PgJson.write(load));
        s.setObject(3, time(job.started()));
    }

    static PreparedStatement insertReturn(Connection c) throws SQLException {
        return c.prepareStatement(INSERT_RETURN);
    }

    static void bind(PreparedStatement s, JobReturn ret) throws SQLException {
        s.setString(1, ret.jid());
        s.setString(2, ret.id());
        s.setString(3, String.valueOf(ret.success())); // psycopg2 writes Python's bool into Salt's varchar so
        s.setString(4, ret.jid());
        s.setString(5, ret.id());
        s.setInt(6, ret.retcode());
        s.setBoolean(7, ret.success());
        s.setObject(8, time(ret.received()));
        s.setInt(9, ret.retcode());
        s.setBoolean(10, ret.verified());
        s.setString(11, ret.jid());
        s.setString(12, PgJson.write(ret.ret()));
    }

    static Optional<Job> job(Connection c, String jid) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(SELECT_JOB + " WHERE jid = ?")) {
            s.setString(1, jid);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(job(rs)) : Optional.empty();
            }
        }
    }

    /** Only the bounds given are in the query, so the primary key serves it as a range scan. */
    static List<Job> jobsBetween(Connection c, String firstJid, String lastJid) throws SQLException {
        StringBuilder sql = new StringBuilder(SELECT_JOB);
        List<String> params = new ArrayList<>();
        if (firstJid != null) {
            sql.append(" WHERE jid >= ?");
            params.add(firstJid);
        }
        if (lastJid != null) {
            sql.append(firstJid == null ? " WHERE" : " AND").append(" jid <= ?");
            params.add(lastJid);
        }
        sql.append(" ORDER BY jid");
        try (PreparedStatement s = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < params.size(); i++) {
                s.setString(i + 1, params.get(i));
            }
            List<Job> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    out.add(job(rs));
                }
            }
            return out;
        }
    }

    static List<JobReturn> returns(Connection c, String jid) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT id, return, retcode, success, alter_time, verified"
                + " FROM salt_returns WHERE jid = ? ORDER BY seq")) {
            s.setString(1, jid);
            List<JobReturn> out = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    OffsetDateTime at = rs.getObject(5, OffsetDateTime.class);
                    out.add(new JobReturn(jid, rs.getString(1), PgJson.read(rs.getString(2)), rs.getInt(3),
                            "true".equalsIgnoreCase(rs.getString(4)), at == null ? Instant.EPOCH : at.toInstant(),
                            rs.getBoolean(6)));
                }
            }
            return out;
        }
    }

    @SuppressWarnings("unchecked")
    private static Job job(ResultSet rs) throws SQLException {
        Object parsed = PgJson.read(rs.getString(2));
        Map<String, Object> load = parsed instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        List<String> minions = null;
        if (load.get("minions") instanceof List<?> l) {
            minions = new ArrayList<>();
            for (Object o : l) {
                minions.add(String.valueOf(o));
            }
        }
        List<Object> arg = load.get("arg") instanceof List<?> l ? (List<Object>) l : null;
        return new Job(rs.getString(1), string(load.get("fun")), arg, load.get("tgt"), string(load.get("tgt_type")),
                string(load.get("user")), minions, rs.getObject(3, OffsetDateTime.class).toInstant());
    }

    private static String string(Object o) {
        return o == null ? null : o.toString();
    }

    static OffsetDateTime time(Instant at) {
        return OffsetDateTime.ofInstant(at.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }
}
