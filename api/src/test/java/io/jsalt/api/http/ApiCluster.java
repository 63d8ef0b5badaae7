package io.jsalt.api.http;

import io.jsalt.api.ApiConfig;
import io.jsalt.api.ApiServer;
import io.jsalt.config.MasterConfig;
import io.jsalt.config.MinionConfig;
import io.jsalt.master.Master;
import io.jsalt.master.auth.ExternalAuth;
import io.jsalt.minion.Minion;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real master (auto_accept) and real minions in this JVM on free loopback ports, and a jsalt-api on a free
 * port in front of the master, reaching it over the wire with the client key as the daemon does.
 */
final class ApiCluster implements AutoCloseable {
    private final Path root;
    private final Transport transport = Transport.create();
    private final MasterConfig masterConfig;
    /** Config keys of some minions, beyond those every minion gets (grains, supervisor programs, ...). */
    private final Map<String, Map<String, Object>> minionSettings = new java.util.HashMap<>();
    private final List<Minion> minions = new ArrayList<>();
    private Master master;
    private ApiServer api;
    private Map<String, Object> externalAuth;

    ApiCluster(Path root) throws IOException {
        this.root = root;
        int[] ports = freePorts();
        masterConfig = MasterConfig.builder(root.resolve("master")).configDir(root.resolve("master-conf"))
                .interfaceAddress("127.0.0.1").publishPort(ports[0]).retPort(ports[1]).workerThreads(4).timeout(10)
                .autoAccept(true).build();
        Files.createDirectories(masterConfig.pkiDir());
        Files.writeString(masterConfig.pkiDir().resolve("master.pem"), SaltVectors.text("keys/master.pem"));
        Files.writeString(masterConfig.pkiDir().resolve("master.pub"), SaltVectors.text("keys/master.pub"));
    }

    ApiCluster start(Map<String, Object> externalAuth, List<String> enabledClients, String... minionIds) throws IOException {
        this.externalAuth = externalAuth;
        rewriteMasterConfig(Map.of());
        master = new Master(masterConfig, transport);
        master.start();
        for (String id : minionIds) {
            io.jsalt.config.MinionConfigBuilder builder = MinionConfig.builder(root.resolve("minions").resolve(id)).id(id)
                    .master("127.0.0.1").masterPort(masterConfig.retPort()).publishPort(masterConfig.publishPort())
                    .acceptanceWaitTime(0.2).randomReauthDelay(0).authTimeout(5);
            minionSettings.getOrDefault(id, Map.of()).forEach(builder::set);
            MinionConfig config = builder.build();
            Files.createDirectories(config.pkiDir());
            Files.writeString(config.pkiDir().resolve("minion.pem"), SaltVectors.text("keys/minion.pem"));
            Files.writeString(config.pkiDir().resolve("minion.pub"), SaltVectors.text("keys/minion.pub"));
            Minion minion = new Minion(config, transport);
            minions.add(minion);
            minion.start();
        }
        api = new ApiServer(ApiConfig.of(masterConfig, "127.0.0.1", 0, 43_200, new ExternalAuth(externalAuth), enabledClients),
                Clock.systemUTC());
        api.start();
        return this;
    }

    /**
     * Writes the master's config file again: {@code external_auth} as started, plus {@code more} keys. The
     * master re-reads its eauth settings when the file changes.
     */
    void rewriteMasterConfig(Map<String, Object> more) throws IOException {
        // the master reads external_auth from its own config file, as jsalt-api does (JSON is YAML)
        Map<String, Object> config = new java.util.LinkedHashMap<>();
        // the API tests fail logins on purpose from one address, test after test; the master's own limit (10 a
        // minute per name and per address) is MasterEauthTest's, and jsalt-api's per-address one is checked here
        config.put("eauth_login_failures", 1000);
        config.putAll(more);
        config.put("external_auth", externalAuth);
        Files.createDirectories(masterConfig.configDir());
        Files.writeString(masterConfig.configDir().resolve("master"), new org.eclipse.jetty.util.ajax.JSON().toJSON(config));
    }

    /** One more jsalt-api on the same master, with its own copy of the users (the master's rights still rule) and clients. */
    ApiServer anotherApi(Map<String, Object> externalAuth, List<String> enabledClients) {
        return anotherApi(externalAuth, enabledClients, List.of());
    }

    /** As above, answering cross-origin requests from {@code corsOrigins}. */
    ApiServer anotherApi(Map<String, Object> externalAuth, List<String> enabledClients, List<String> corsOrigins) {
        return anotherApi(externalAuth, enabledClients, c -> c.withCorsOrigins(corsOrigins));
    }

    /** As above, with its config adjusted by {@code adjust} (TLS, CORS). */
    ApiServer anotherApi(Map<String, Object> externalAuth, List<String> enabledClients, java.util.function.UnaryOperator<ApiConfig> adjust) {
        ApiServer other = new ApiServer(adjust.apply(ApiConfig.of(masterConfig, "127.0.0.1", 0, 43_200, new ExternalAuth(externalAuth),
                enabledClients)), Clock.systemUTC());
        other.start();
        return other;
    }

    /** The master itself, to see what it published. */
    Master master() {
        return master;
    }

    /** The master's pki folder, to see the keys it holds. */
    Path masterPki() {
        return masterConfig.pkiDir();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + api.port();
    }

    /** Before {@link #start}: the minion {@code id} gets these keys in its config too. */
    ApiCluster minionSettings(String id, Map<String, Object> settings) {
        minionSettings.put(id, Map.copyOf(settings));
        return this;
    }

    private static int[] freePorts() throws IOException {
        try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ServerSocket b = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new int[] {a.getLocalPort(), b.getLocalPort()};
        }
    }

    /** The API first (it holds a line to the master), then the minions, the master and the shared transport. */
    @Override
    public void close() {
        if (api != null) {
            api.close();
        }
        minions.forEach(Minion::close);
        if (master != null) {
            master.close();
        }
        transport.close();
    }
}
