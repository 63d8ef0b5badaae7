package io.jsalt.master.jobs.pg;

import io.jsalt.config.PostgresSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.postgresql.Driver;

/**
 * Opens connections to the database {@link PostgresSettings} names and tells an outage (the database is
 * away: retry later) from a refusal (wrong password, no such database: the operator must act).
 */
public final class PgConnector {
    /** Seconds to wait for a connection, and for an answer, before calling the database away. */
    static final int CONNECT_TIMEOUT_SECONDS = 5;
    static final int SOCKET_TIMEOUT_SECONDS = 60;

    private final PostgresSettings settings;
    private final String url;
    private final Driver driver = new Driver();

    public PgConnector(PostgresSettings settings) {
        this.settings = settings;
        String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
        // encoded, so that no database name can change what the URL means
        this.url = "jdbc:postgresql://" + host + ":" + settings.port() + "/"
                + java.net.URLEncoder.encode(settings.db(), java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    public Connection open() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", settings.user());
        p.setProperty("password", settings.pass());
        p.setProperty("ApplicationName", "jsalt-master");
        p.setProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT_SECONDS));
        p.setProperty("socketTimeout", String.valueOf(SOCKET_TIMEOUT_SECONDS));
        p.setProperty("tcpKeepAlive", "true");
        settings.ssl().forEach(p::setProperty);
        Connection c = driver.connect(url, p);
        if (c == null) {
            throw new SQLException("the PostgreSQL driver refused " + url);
        }
        return c;
    }

    /** For messages: where, never the password. */
    public String describe() {
        return settings.toString();
    }

    /**
     * True when the database refuses a record for what it holds (a data exception, class 22; a constraint,
     * 23; a program limit such as a too large jsonb, 54): writing it again will never work. Anything else
     * (rights, an object missing, a lock, a full disk) is not the record's fault.
     */
    public static boolean refusesTheRecord(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("22") || state.startsWith("23") || state.startsWith("54"));
    }

    /**
     * True when the failure means "the database is away" (no connection, connection lost, server shutting
     * down or starting): the master spools and retries. Anything else (authentication, a missing
     * database, a bad statement) is a refusal that no waiting cures.
     */
    public static boolean isOutage(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() != null) {
                String state = s.getSQLState();
                if (state.startsWith("08") || state.startsWith("57P") || state.equals("53300")) {
                    return true; // connection exception, admin shutdown / cannot connect now, too many connections
                }
            }
            if (t instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }
}
