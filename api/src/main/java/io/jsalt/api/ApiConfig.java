package io.jsalt.api;

import io.jsalt.config.ConfigFile;
import io.jsalt.config.MasterConfig;
import io.jsalt.api.events.EventLimits;
import io.jsalt.api.http.AuthorizedIps;
import io.jsalt.api.http.TlsKeys;
import io.jsalt.api.http.WebFiles;
import io.jsalt.master.auth.ExternalAuth;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * jsalt-api's settings, read from the master's config file as salt-api reads them: the {@code rest_cherrypy}
 * section, {@code external_auth} and {@code token_expire}.
 *
 * @param master      the master this API drives (its ports, cachedir for the client key, sock_dir for events)
 * @param host        {@code rest_cherrypy:host} (default 0.0.0.0)
 * @param port        {@code rest_cherrypy:port} (required, as in salt-api)
 * @param disableSsl  {@code rest_cherrypy:disable_ssl}: clear HTTP; otherwise TLS from ssl_crt and ssl_key
 * @param sslCrt      {@code rest_cherrypy:ssl_crt}, or null
 * @param sslKey      {@code rest_cherrypy:ssl_key}, or null
 * @param debug       {@code rest_cherrypy:debug}: error bodies carry the exception's message
 * @param tokenExpire {@code token_expire}: seconds a login token lives (default 43200)
 * @param enabledClients {@code netapi_enable_clients}: the lowstate clients allowed (Salt 3006: none by default)
 * @param pidfile     {@code api_pidfile}: jsalt-api's own pid file (salt-api's key; default /var/run/jsalt/jsalt-api.pid)
 * @param logFile     {@code api_logfile}: jsalt-api's own log file (salt-api's key; default /var/log/jsalt/api)
 * @param auditFile   {@code api_audit_logfile} (jsalt's own key; default /var/log/jsalt/api-audit): one line per login,
 *                    logout and action ({@link AuditLog}), whatever the log levels
 * @param corsOrigins {@code rest_cherrypy:cors_origin}: {@code '*'}, one origin or a list (none: no CORS)
 * @param webhookUrl  {@code rest_cherrypy:webhook_url} (default /hook)
 * @param webhookDisableAuth {@code rest_cherrypy:webhook_disable_auth}: webhooks without a login (default false)
 * @param web         {@code rest_cherrypy:app_path}, {@code app}, {@code static_path} and {@code static}
 * @param expireResponses {@code rest_cherrypy:expire_responses} (default true): read and checked, and without effect,
 *                    as in salt-api 3006 (it was CherryPy's timeout_monitor, which CherryPy 12 removed)
 * @param authorizedIps {@code rest_cherrypy:authorized_ips}: the only client addresses served (none: every client)
 * @param http2       {@code rest_cherrypy:http2} (jsalt's own key, default true): HTTP/2 beside HTTP/1.1, h2 by ALPN
 *                    over TLS, h2c in clear; false serves HTTP/1.1 only, as salt-api
 * @param rootPrefix  {@code rest_cherrypy:root_prefix}: the URL path the whole API is served under, without a
 *                    trailing slash ({@code ""} for salt-api's default {@code /})
 * @param events      {@code rest_cherrypy:max_event_streams} and {@code event_stream_buffer} (jsalt's own keys)
 */
public record ApiConfig(MasterConfig master, String host, int port, boolean disableSsl, Path sslCrt, Path sslKey,
        boolean debug, long tokenExpire, ExternalAuth externalAuth, List<String> enabledClients, Path pidfile, Path logFile, Path auditFile,
        List<String> corsOrigins, String webhookUrl, boolean webhookDisableAuth, WebFiles web, boolean expireResponses,
        AuthorizedIps authorizedIps, boolean http2, String rootPrefix,
        EventLimits events) {

    public static final int DEFAULT_TOKEN_EXPIRE = 43_200;
    private static final java.util.regex.Pattern ROOT_PREFIX = java.util.regex.Pattern.compile("(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+");

    /** Reads {@code configDir/master}. */
    public static ApiConfig load(Path configDir) {
        Path file = configDir.toAbsolutePath().normalize().resolve(MasterConfig.FILE_NAME);
        ConfigFile config = ConfigFile.load(file);
        return from(config, MasterConfig.from(ConfigFile.load(file)));
    }

    static ApiConfig from(ConfigFile config, MasterConfig master) {
        Map<String, Object> rest = config.map("rest_cherrypy");
        ConfigFile section = ConfigFile.of(config.file(), rest);
        if (!section.has("port")) {
            throw config.refuse("rest_cherrypy", "a mapping with at least port: (salt-api's rest_cherrypy section)");
        }
        int port = section.integer("port", 8000, 1, 65_535);
        String host = section.string("host", "0.0.0.0");
        boolean disableSsl = section.bool("disable_ssl", false);
        Path crt = section.has("ssl_crt") ? Path.of(section.string("ssl_crt", "")) : null;
        Path key = section.has("ssl_key") ? Path.of(section.string("ssl_key", "")) : null;
        if (!disableSsl) {
            // salt-api serves TLS unless told not to; it must never silently serve clear text instead
            if (crt == null || key == null) {
                throw config.refuse("rest_cherrypy", "ssl_crt and ssl_key (PEM files), or disable_ssl: True");
            }
            try {
                TlsKeys.load(crt, key);
            } catch (IllegalArgumentException e) {
                throw config.refuse("rest_cherrypy", "readable ssl_crt and ssl_key: " + e.getMessage());
            }
        }
        boolean debug = section.bool("debug", false);
        long tokenExpire = config.integer("token_expire", DEFAULT_TOKEN_EXPIRE, 1, Integer.MAX_VALUE);
        ExternalAuth eauth;
        try {
            eauth = new ExternalAuth(config.map("external_auth"));
        } catch (IllegalArgumentException e) {
            throw config.refuse("external_auth", e.getMessage());
        }
        Path pidfile = config.path("api_pidfile", master.rootDir(), "/var/run/jsalt/jsalt-api.pid");
        Path logFile = config.path("api_logfile", master.rootDir(), "/var/log/jsalt/api");
        Path auditFile = config.path("api_audit_logfile", master.rootDir(), "/var/log/jsalt/api-audit");
        List<String> clients = config.stringList("netapi_enable_clients");
        List<String> cors = section.has("cors_origin") && !(rest.get("cors_origin") instanceof List)
                ? List.of(section.string("cors_origin", "")) : section.stringList("cors_origin");
        String webhookUrl = section.string("webhook_url", "/hook");
        return new ApiConfig(master, host, port, disableSsl, crt, key, debug, tokenExpire, eauth, clients, pidfile, logFile, auditFile, cors,
                webhookUrl, section.bool("webhook_disable_auth", false), webFiles(section, webhookUrl),
                section.bool("expire_responses", true), authorizedIps(section),
                section.bool("http2", true), rootPrefix(section), new EventLimits(
                        section.integer("max_event_streams", EventLimits.DEFAULT_MAX_STREAMS, 1, 100_000),
                        section.integer("event_stream_buffer", EventLimits.DEFAULT_STREAM_BUFFER, 1, 100_000)));
    }

    /** salt-api's root_prefix: {@code /} (the default) or a URL path such as {@code /salt}; kept without its trailing slash. */
    private static String rootPrefix(ConfigFile section) {
        String prefix = section.string("root_prefix", "/").replaceAll("/+$", "");
        if (!prefix.isEmpty() && !ROOT_PREFIX.matcher(prefix).matches()) {
            throw section.refuse("root_prefix", "/ or a URL path such as /salt: '/' then names of letters, digits, '.', '_', '~', '-' "
                    + "(not starting with '.') (rest_cherrypy)");
        }
        return prefix;
    }

    /** salt-api's authorized_ips: one address or a list of them; anything else is refused with the key's name. */
    private static AuthorizedIps authorizedIps(ConfigFile section) {
        List<String> entries = section.stringList("authorized_ips");
        try {
            return AuthorizedIps.of(entries);
        } catch (IllegalArgumentException e) {
            throw section.refuse("authorized_ips", "a list of client IP addresses (rest_cherrypy): " + e.getMessage());
        }
    }

    /** salt-api's app_path, app, static_path and static; a bad one is refused with its key's name. */
    private static WebFiles webFiles(ConfigFile section, String webhookUrl) {
        String appPath = section.string("app_path", WebFiles.DEFAULTS.appPath());
        String staticPath = section.string("static_path", WebFiles.DEFAULTS.staticPath());
        Path app = localPath(section, "app");
        Path dir = localPath(section, "static");
        try {
            WebFiles web = new WebFiles(appPath, app, staticPath, dir);
            web.checkAgainstWebhook(webhookUrl);
            return web;
        } catch (WebFiles.Refused e) {
            throw section.refuse(e.key(), e.getMessage() + " (rest_cherrypy)");
        }
    }

    private static Path localPath(ConfigFile section, String key) {
        if (!section.has(key)) {
            return null;
        }
        try {
            return Path.of(section.string(key, ""));
        } catch (java.nio.file.InvalidPathException e) {
            throw section.refuse(key, "a file system path (rest_cherrypy)");
        }
    }

    /** A config without a file, for tests: clear HTTP, no debug, the pid and log files under the master's root. */
    public static ApiConfig of(MasterConfig master, String host, int port, long tokenExpire, ExternalAuth eauth,
            List<String> enabledClients) {
        return new ApiConfig(master, host, port, true, null, null, false, tokenExpire, eauth, List.copyOf(enabledClients),
                master.rootDir().resolve("jsalt-api.pid"), master.rootDir().resolve("api.log"),
                master.rootDir().resolve("api-audit.log"), List.of(), "/hook", false,
                WebFiles.DEFAULTS, true, AuthorizedIps.ANY, true, "", EventLimits.DEFAULTS);
    }

    /** This config served over TLS from these PEM files, for tests. */
    public ApiConfig withTls(Path crt, Path key) {
        return new ApiConfig(master, host, port, false, crt, key, debug, tokenExpire, externalAuth, enabledClients,
                pidfile, logFile, auditFile, corsOrigins, webhookUrl, webhookDisableAuth, web, expireResponses, authorizedIps, http2, rootPrefix, events);
    }

    /** This config with {@code cors_origin} set, for tests. */
    public ApiConfig withCorsOrigins(List<String> origins) {
        return new ApiConfig(master, host, port, disableSsl, sslCrt, sslKey, debug, tokenExpire, externalAuth, enabledClients,
                pidfile, logFile, auditFile, List.copyOf(origins), webhookUrl, webhookDisableAuth, web, expireResponses, authorizedIps, http2, rootPrefix, events);
    }

    /** This config with {@code webhook_disable_auth} set, for tests. */
    public ApiConfig withWebhookDisableAuth(boolean disable) {
        return new ApiConfig(master, host, port, disableSsl, sslCrt, sslKey, debug, tokenExpire, externalAuth, enabledClients,
                pidfile, logFile, auditFile, corsOrigins, webhookUrl, disable, web, expireResponses, authorizedIps, http2, rootPrefix, events);
    }

    /** This config serving these files (app_path, app, static_path, static), for tests. */
    public ApiConfig withWebFiles(WebFiles files) {
        return new ApiConfig(master, host, port, disableSsl, sslCrt, sslKey, debug, tokenExpire, externalAuth, enabledClients,
                pidfile, logFile, auditFile, corsOrigins, webhookUrl, webhookDisableAuth, files, expireResponses, authorizedIps, http2, rootPrefix, events);
    }

    /** This config with these event stream bounds ({@code max_event_streams}, {@code event_stream_buffer}), for tests. */
    public ApiConfig withEventLimits(EventLimits limits) {
        return new ApiConfig(master, host, port, disableSsl, sslCrt, sslKey, debug, tokenExpire, externalAuth, enabledClients,
                pidfile, logFile, auditFile, corsOrigins, webhookUrl, webhookDisableAuth, web, expireResponses, authorizedIps, http2, rootPrefix, limits);
    }

    /** This config serving only clients at these addresses ({@code authorized_ips}), for tests. */
    public ApiConfig withAuthorizedIps(AuthorizedIps ips) {
        return new ApiConfig(master, host, port, disableSsl, sslCrt, sslKey, debug, tokenExpire, externalAuth, enabledClients,
                pidfile, logFile, auditFile, corsOrigins, webhookUrl, webhookDisableAuth, web, expireResponses, ips, http2, rootPrefix, events);
    }

    /** This config with {@code http2} set, for tests. */
    public ApiConfig withHttp2(boolean on) {
        return new ApiConfig(master, host, port, disableSsl, sslCrt, sslKey, debug, tokenExpire, externalAuth, enabledClients,
                pidfile, logFile, auditFile, corsOrigins, webhookUrl, webhookDisableAuth, web, expireResponses, authorizedIps, on, rootPrefix, events);
    }

    /** This config served under {@code root_prefix} (without its trailing slash), for tests. */
    public ApiConfig withRootPrefix(String prefix) {
        return new ApiConfig(master, host, port, disableSsl, sslCrt, sslKey, debug, tokenExpire, externalAuth, enabledClients,
                pidfile, logFile, auditFile, corsOrigins, webhookUrl, webhookDisableAuth, web, expireResponses, authorizedIps, http2, prefix, events);
    }
}
