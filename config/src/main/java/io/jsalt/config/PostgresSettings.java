package io.jsalt.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where {@code master_job_cache: postgres} keeps jobs, returns and events, named as Salt's {@code pgjsonb}
 * returner names them in the master config ({@code returner.pgjsonb.host} and so on, with Salt's defaults),
 * or, instead of those, one libpq connection string ({@code returner.pgjsonb.dsn}, a jsalt addition:
 * {@code host=db1 port=5432 dbname=salt user=salt password=... sslmode=verify-full}).
 *
 * @param host          {@code returner.pgjsonb.host} (default {@code localhost})
 * @param port          {@code returner.pgjsonb.port} (default 5432)
 * @param db            {@code returner.pgjsonb.db} (default {@code salt})
 * @param user          {@code returner.pgjsonb.user} (default {@code salt})
 * @param pass          {@code returner.pgjsonb.pass} (default {@code salt}); never shown by {@link #toString}
 * @param ssl           {@code sslmode}, {@code sslcert}, {@code sslkey}, {@code sslrootcert} as given
 * @param spoolMaxBytes {@code master_job_cache_spool_max_bytes}: how much the master queues on disk while the
 *                      database is away (default 256 MiB); past it a return is refused, and its minion retries
 * @param eventReturn   {@code event_return: pgjsonb}, as in Salt: every event of the master's bus is written to
 *                      {@code salt_events}; jsalt also announces it with NOTIFY, so every master on the database
 *                      fires it on its own bus (docs/multi-master.md)
 * @param clusterId     {@code cluster_id} (Salt 3007's name for a cluster of masters), null when not set: with it,
 *                      the minions' keys, the session key and the minions' grains live in this database too,
 *                      shared by every master of the cluster (docs/multi-master.md); the database remembers the
 *                      name, and a master with another name is refused
 */
public record PostgresSettings(String host, int port, String db, String user, String pass, Map<String, String> ssl,
        long spoolMaxBytes, boolean eventReturn, String clusterId) {
    /** What {@code cluster_id} may be: letters, digits, '.', '_', '-', at most 64. */
    public static final java.util.regex.Pattern CLUSTER_ID = java.util.regex.Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** libpq's sslmode values, which the PostgreSQL JDBC driver also takes. */
    public static final List<String> SSL_MODES = List.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");
    static final String PREFIX = "returner.pgjsonb.";
    private static final List<String> SSL_KEYS = List.of("sslmode", "sslcert", "sslkey", "sslrootcert");
    private static final List<String> FIELDS = List.of("host", "port", "db", "user", "pass");

    public PostgresSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(db, "db");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(pass, "pass");
        ssl = Map.copyOf(ssl);
        if (clusterId != null && !CLUSTER_ID.matcher(clusterId).matches()) {
            throw new IllegalArgumentException("cluster_id must be 1 to 64 of A-Z a-z 0-9 . _ -");
        }
    }

    /** Settings of a master that is not part of a cluster. */
    public PostgresSettings(String host, int port, String db, String user, String pass, Map<String, String> ssl,
            long spoolMaxBytes, boolean eventReturn) {
        this(host, port, db, user, pass, ssl, spoolMaxBytes, eventReturn, null);
    }

    /** The same database, for the masters of cluster {@code id}. */
    public PostgresSettings withClusterId(String id) {
        return new PostgresSettings(host, port, db, user, pass, ssl, spoolMaxBytes, eventReturn, id);
    }

    /** Salt's defaults: {@code salt@localhost:5432/salt}, password {@code salt}, no SSL setting. */
    public static PostgresSettings defaults() {
        return new PostgresSettings("localhost", 5432, "salt", "salt", "salt", Map.of(), 256L * 1_048_576, false);
    }

    @Override
    public String toString() {
        return "postgresql://" + user + "@" + host + ":" + port + "/" + db + (ssl.isEmpty() ? "" : " " + ssl);
    }

    static PostgresSettings read(ConfigFile config) {
        long spool = config.integer("master_job_cache_spool_max_bytes", 256 * 1_048_576, 1_048_576, Integer.MAX_VALUE);
        boolean eventReturn = eventReturn(config);
        String clusterId = config.string("cluster_id", null);
        if (clusterId != null && !CLUSTER_ID.matcher(clusterId).matches()) {
            throw config.refuse("cluster_id", "1 to 64 of A-Z a-z 0-9 . _ -");
        }
        String dsn = config.string(PREFIX + "dsn", null);
        if (dsn != null) {
            for (String field : FIELDS) {
                if (config.has(PREFIX + field)) {
                    throw config.refuse(PREFIX + field, "no value: " + PREFIX + "dsn already names the database");
                }
            }
            return fromConnectionString(config, dsn, spool, eventReturn).withClusterId(clusterId);
        }
        PostgresSettings d = defaults();
        Map<String, String> ssl = new LinkedHashMap<>();
        for (String key : SSL_KEYS) {
            String value = config.string(PREFIX + key, null);
            if (value != null) {
                ssl.put(key, value);
            }
        }
        checkSslMode(config, PREFIX + "sslmode", ssl.get("sslmode"));
        String host = config.string(PREFIX + "host", d.host);
        if (host.isBlank()) {
            throw config.refuse(PREFIX + "host", "a host name or address");
        }
        return new PostgresSettings(host, config.integer(PREFIX + "port", d.port, 1, 65_535),
                config.string(PREFIX + "db", d.db), config.string(PREFIX + "user", d.user), password(config), ssl, spool,
                eventReturn, clusterId);
    }

    /** Salt's {@code event_return}: a returner name or a list; pgjsonb is the one event returner jsalt has. */
    private static boolean eventReturn(ConfigFile config) {
        List<String> returners = config.stringList("event_return");
        for (String r : returners) {
            if (!"pgjsonb".equals(r)) {
                throw config.refuse("event_return", "pgjsonb (the only event returner jsalt has), with master_job_cache: postgres");
            }
        }
        return !returners.isEmpty();
    }

    /** The password, refused without showing it when it is not a string. */
    private static String password(ConfigFile config) {
        try {
            return config.string(PREFIX + "pass", defaults().pass);
        } catch (ConfigException e) {
            throw new ConfigException(config.file(), PREFIX + "pass", "a string (quote it)", "a value not shown");
        }
    }

    private static void checkSslMode(ConfigFile config, String key, String mode) {
        if (mode != null && !SSL_MODES.contains(mode)) {
            throw config.refuse(key, "one of " + String.join(", ", SSL_MODES));
        }
    }

    /** libpq's {@code keyword=value} form; the keywords jsalt does not use are refused, not ignored. */
    private static PostgresSettings fromConnectionString(ConfigFile config, String dsn, long spool, boolean eventReturn) {
        String key = PREFIX + "dsn";
        Map<String, String> values;
        try {
            values = ConnectionString.parse(dsn);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(config.file(), key, "a libpq connection string (" + e.getMessage() + ")",
                    "a value not shown");
        }
        PostgresSettings d = defaults();
        Map<String, String> ssl = new LinkedHashMap<>();
        String host = d.host;
        int port = d.port;
        String db = d.db;
        String user = d.user;
        String pass = d.pass;
        for (Map.Entry<String, String> e : values.entrySet()) {
            String value = e.getValue();
            switch (e.getKey()) {
                case "host", "hostaddr" -> host = value;
                case "port" -> port = port(config, key, value);
                case "dbname" -> db = value;
                case "user" -> user = value;
                case "password" -> pass = value;
                case "sslmode", "sslcert", "sslkey", "sslrootcert" -> ssl.put(e.getKey(), value);
                default -> throw new ConfigException(config.file(), key,
                        "only host, hostaddr, port, dbname, user, password, sslmode, sslcert, sslkey, sslrootcert",
                        e.getKey());
            }
        }
        checkSslMode(config, key, ssl.get("sslmode"));
        return new PostgresSettings(host, port, db, user, pass, ssl, spool, eventReturn);
    }

    private static int port(ConfigFile config, String key, String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 1 && port <= 65_535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // refused below with the value
        }
        throw new ConfigException(config.file(), key, "port=1..65535", value);
    }
}
