package io.jsalt.cli.daemon;

import io.jsalt.api.ApiConfig;
import io.jsalt.api.ApiException;
import io.jsalt.api.ApiServer;
import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.config.ConfigException;
import io.jsalt.config.DaemonConfig;
import io.jsalt.config.MasterConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jsalt-api [-c DIR] [-d] [--pid-file PATH] [-l LEVEL]}: salt-api's REST interface in front of the
 * master configured in {@code DIR/master} (its {@code rest_cherrypy} and {@code external_auth} sections), with
 * the daemon craft of the master ({@link DaemonLauncher}); its own pid and log files ({@code api_pidfile},
 * {@code api_logfile}) and its audit file ({@code api_audit_logfile}). Runs as the master's user: it reads the master's client key.
 */
@Command(name = "jsalt-api", mixinStandardHelpOptions = true, version = "jsalt-api 0.1.0",
        description = "Run jsalt-api, salt-api's REST interface to the jsalt master.")
public final class ApiDaemon implements Callable<ExitCode>, DaemonRole<ApiConfig> {
    @Mixin
    DaemonOptions options;

    public static void main(String[] argv) {
        ApiDaemon daemon = new ApiDaemon();
        System.exit(DaemonOptions.run(daemon, o -> daemon.options = o, System.err, argv));
    }

    @Override
    public ExitCode call() throws Exception {
        return new DaemonLauncher<>(this, options, System.err, code -> Runtime.getRuntime().halt(code)).run();
    }

    @Override
    public String name() {
        return "jsalt-api";
    }

    @Override
    public Class<?> mainClass() {
        return ApiDaemon.class;
    }

    @Override
    public ApiConfig load(Path configDir) {
        try {
            return ApiConfig.load(configDir);
        } catch (ConfigException e) {
            throw new CliException(ExitCode.CONFIG, e.getMessage());
        }
    }

    @Override
    public DaemonProfile profile(ApiConfig config) {
        MasterConfig m = config.master();
        DaemonConfig d = m.daemon();
        return new DaemonProfile(m.pkiDir(), m.cachedir(), m.sockDir(), config.logFile(), m.logLevel(),
                new DaemonConfig(config.pidfile(), d.gracefulShutdownTimeout(), d.logLevelLogfile(), d.logFmtLogfile(),
                        d.logRotateMaxBytes(), d.logRotateBackupCount()), config.auditFile());
    }

    @Override
    public void preflight(ApiConfig config) {
        PortCheck.requireFree(config.host(), Map.of("rest_cherrypy:port", config.port()));
    }

    @Override
    public Running<ApiConfig> start(ApiConfig config) {
        ApiServer server = new ApiServer(config, Clock.systemUTC());
        try {
            server.start();
        } catch (ApiException e) {
            throw new CliException(ExitCode.UNAVAILABLE, e.getMessage());
        } catch (IllegalStateException e) {
            throw new CliException(ExitCode.PORTS_UNAVAILABLE, e.getMessage());
        }
        return new Running<>() {
            @Override
            public List<String> reload(ApiConfig next) {
                // external_auth and token_expire are the master's to apply (it re-reads its file); the HTTP side
                // (port, root_prefix, TLS, HTTP/2, CORS, webhooks, app and static files, authorized_ips) changes only with a restart of jsalt-api: name it
                List<String> changed = new java.util.ArrayList<>();
                if (!next.host().equals(config.host()) || next.port() != config.port() || next.debug() != config.debug()
                        || next.disableSsl() != config.disableSsl() || !java.util.Objects.equals(next.sslCrt(), config.sslCrt())
                        || !java.util.Objects.equals(next.sslKey(), config.sslKey()) || !next.corsOrigins().equals(config.corsOrigins())
                        || !next.webhookUrl().equals(config.webhookUrl()) || next.webhookDisableAuth() != config.webhookDisableAuth()
                        || !next.web().equals(config.web()) || next.expireResponses() != config.expireResponses()
                        || !next.authorizedIps().equals(config.authorizedIps()) || next.http2() != config.http2()
                        || !next.rootPrefix().equals(config.rootPrefix())) {
                    changed.add("rest_cherrypy");
                }
                return changed;
            }

            @Override
            public CompletableFuture<Stopped> stoppedOnItsOwn() {
                return new CompletableFuture<>();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }
}
