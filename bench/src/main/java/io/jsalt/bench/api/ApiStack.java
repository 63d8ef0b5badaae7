package io.jsalt.bench.api;

import java.util.List;

/**
 * One side of the API benchmark, running: a master, its minions and a REST API in front of it (jsalt-api +
 * jsalt-master + jsalt-minions, or salt-api + salt-master + salt-minions 3006.8), all real processes on this
 * machine. The user {@code bench} / {@code bench-pw} (eauth {@code file}) may run everything and read the whole
 * event bus.
 */
public interface ApiStack extends AutoCloseable {
    String USER = "bench";
    String PASSWORD = "bench-pw";

    /** What this side is, for the report ({@code jsalt-api + jsalt-master}). */
    String name();

    String baseUrl();

    /** The API's process and the master's (with their children: Salt's master is a tree of processes), for CPU time. */
    List<ProcessHandle> apiProcesses();

    List<ProcessHandle> masterProcesses();

    @Override
    void close();

    /** The master config lines both sides share: the API, the bench user and the clients it uses. */
    static List<String> apiConfig(int port, java.nio.file.Path users) {
        return List.of("rest_cherrypy:", "  port: " + port, "  host: 127.0.0.1", "  disable_ssl: True",
                "netapi_enable_clients: [local, local_async]", "external_auth:", "  file:", "    ^filename: " + users,
                "    " + USER + ":", "      - '.*'", "      - '@events'");
    }
}
