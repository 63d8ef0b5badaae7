package io.jsalt.master;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.support.TestKeys;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.RequestEnvelope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The master's {@code @wheel} rights over every wheel function beyond the key changes, on a running master with
 * a {@code file} eauth backend: each function is refused to a user without the right, before it runs (nothing
 * written), and a list of wheel functions, a module right ({@code @file_roots}) and an argument condition allow
 * exactly what they name.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MasterWheelRightsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    Path root;
    Transport transport;
    Master master;
    RequestClient client;
    Path fileRoot;
    Path pillarRoot;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        root = dir;
        transport = Transport.create();
        Path conf = Files.createDirectories(root.resolve("conf"));
        fileRoot = Files.createDirectories(root.resolve("srv/jsalt"));
        pillarRoot = Files.createDirectories(root.resolve("srv/pillar"));
        Files.writeString(fileRoot.resolve("top.sls"), "base: {}\n");
        Files.writeString(pillarRoot.resolve("secrets.sls"), "db_password: hunter2\n");
        Path users = Files.writeString(root.resolve("users"), "ops:pw\nreader:pw\nfiler:pw\nscratch:pw\nadmin:pw\n");
        Files.writeString(conf.resolve("master"), """
                external_auth:
                  file:
                    ^filename: %s
                    ops:
                      - '@runner'
                      - test.*
                    reader:
                      - '@wheel':
                        - file_roots.read
                        - file_roots.list_.*
                    filer:
                      - '@file_roots'
                    scratch:
                      - '@wheel':
                        - file_roots.write:
                            kwargs:
                              path: 'scratch/.*'
                              data:
                    admin:
                      - '@wheel'
                """.formatted(users));
        int publishPort = freePort();
        int retPort = freePort();
        while (retPort == publishPort) {
            retPort = freePort();
        }
        MasterConfig config = MasterConfig.builder(root).configDir(conf).interfaceAddress("127.0.0.1").publishPort(publishPort)
                .retPort(retPort).workerThreads(2).timeout(3).build();
        Files.createDirectories(config.pkiDir());
        Path pem = config.pkiDir().resolve("master.pem");
        Files.writeString(pem, TestKeys.masterPrivatePem());
        Files.setPosixFilePermissions(pem, PosixFilePermissions.fromString("r--------"));
        master = new Master(config, Transport::create);
        master.start();
        client = transport.connectRequestClient("127.0.0.1", master.requestPort());
    }

    @AfterAll
    void stop() {
        client.close();
        master.close();
        transport.close();
    }

    /** Every wheel function beyond the key changes, with arguments it would run with. */
    static Stream<Map<String, Object>> functions() {
        return Stream.of(Map.of("fun", "config.values"), Map.of("fun", "minions.connected"), Map.of("fun", "error.error"),
                Map.of("fun", "file_roots.list_env"), Map.of("fun", "file_roots.list_roots"), Map.of("fun", "file_roots.find", "path", "top.sls"),
                Map.of("fun", "file_roots.read", "path", "top.sls"), Map.of("fun", "file_roots.write", "path", "denied.sls", "data", "x"),
                Map.of("fun", "pillar_roots.list_env"), Map.of("fun", "pillar_roots.list_roots"),
                Map.of("fun", "pillar_roots.find", "path", "secrets.sls"), Map.of("fun", "pillar_roots.read", "path", "secrets.sls"),
                Map.of("fun", "pillar_roots.write", "path", "denied.sls", "data", "x"), Map.of("fun", "key.list", "match", "acc"),
                Map.of("fun", "key.list_all"), Map.of("fun", "key.name_match", "match", "*"), Map.of("fun", "key.finger", "match", "*"),
                Map.of("fun", "key.finger_master"), Map.of("fun", "key.print", "match", "*"), Map.of("fun", "key.master_key_str"),
                Map.of("fun", "key.gen"), Map.of("fun", "key.gen_accept", "id_", "sneaky"));
    }

    @ParameterizedTest
    @MethodSource("functions")
    void eachWheelFunctionIsRefusedToAUserWithoutTheWheelRight(Map<String, Object> call) {
        assertThat(wheel("ops", call)).containsEntry("error", "Authentication failure of type \"token\" occurred for user ops.");
        assertThat(fileRoot.resolve("denied.sls")).doesNotExist();
        assertThat(pillarRoot.resolve("denied.sls")).doesNotExist();
        assertThat(master.keys().stateOf("sneaky")).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("functions")
    void eachWheelFunctionRunsForAUserWithTheWholeWheelRightUnderTheirName(Map<String, Object> call) {
        Map<String, Object> allowed = new LinkedHashMap<>(call);
        allowed.replace("path", "denied.sls", "admin.sls"); // what the refused calls must not have written stays unwritten
        allowed.replace("id_", "sneaky", "granted");

        Map<String, Object> data = Wire.map(wheel("admin", allowed), "data");

        assertThat(data).containsEntry("user", "admin").containsEntry("success", true).containsKey("return");
    }

    @Test
    void aListOfWheelFunctionsAllowsThoseAndRefusesEveryOther() {
        assertThat(Wire.map(wheel("reader", Map.of("fun", "file_roots.read", "path", "top.sls")), "data"))
                .containsEntry("success", true).containsEntry("return", List.of(Map.of(fileRoot + "/top.sls", "base: {}\n")));
        assertThat(Wire.map(wheel("reader", Map.of("fun", "file_roots.list_roots")), "data")).containsEntry("success", true);
        for (Map<String, Object> call : List.of(Map.<String, Object>of("fun", "file_roots.write", "path", "denied.sls", "data", "x"),
                Map.<String, Object>of("fun", "pillar_roots.read", "path", "secrets.sls"), Map.<String, Object>of("fun", "config.values"),
                Map.<String, Object>of("fun", "key.gen"))) {
            assertThat(wheel("reader", call)).as(call.toString())
                    .containsEntry("error", "Authentication failure of type \"token\" occurred for user reader.");
        }
        assertThat(fileRoot.resolve("denied.sls")).doesNotExist();
    }

    @Test
    void aModuleRightAllowsThatModuleOnly() {
        assertThat(Wire.map(wheel("filer", Map.of("fun", "file_roots.list_env")), "data")).containsEntry("success", true);
        assertThat(wheel("filer", Map.of("fun", "pillar_roots.read", "path", "secrets.sls")))
                .containsEntry("error", "Authentication failure of type \"token\" occurred for user filer.");
    }

    @Test
    void anArgumentConditionHoldsAWriteToItsPaths() {
        assertThat(Wire.map(wheel("scratch", Map.of("fun", "file_roots.write", "path", "scratch/a.sls", "data", "a: 1\n")), "data"))
                .containsEntry("success", true);
        assertThat(fileRoot.resolve("scratch/a.sls")).hasContent("a: 1\n");

        assertThat(wheel("scratch", Map.of("fun", "file_roots.write", "path", "top.sls", "data", "owned")))
                .containsEntry("error", "Authentication failure of type \"token\" occurred for user scratch.");
        // arguments given as arg and kwarg are what the wheel binds: the condition is checked on those, not on a decoy
        Map<String, Object> decoy = new LinkedHashMap<>();
        decoy.put("fun", "file_roots.write");
        decoy.put("path", "scratch/decoy.sls");
        decoy.put("data", "x");
        decoy.put("arg", List.of());
        decoy.put("kwarg", Map.of("path", "top.sls", "data", "owned"));
        assertThat(wheel("scratch", decoy)).containsEntry("error", "Authentication failure of type \"token\" occurred for user scratch.");
        decoy.put("kwarg", Map.of("path", "scratch/b.sls", "data", "b: 2\n"));
        assertThat(Wire.map(wheel("scratch", decoy), "data")).containsEntry("success", true);
        assertThat(fileRoot.resolve("scratch/b.sls")).hasContent("b: 2\n");
        assertThat(fileRoot.resolve("scratch/decoy.sls")).doesNotExist();
        // the condition's regex lets dots through; the root's own check does not
        assertThat(Wire.map(wheel("scratch", Map.of("fun", "file_roots.write", "path", "scratch/../top.sls", "data", "owned")), "data"))
                .containsEntry("return", "Invalid path: scratch/../top.sls");
        assertThat(fileRoot.resolve("top.sls")).hasContent("base: {}\n");
    }

    private Map<String, Object> wheel(String user, Map<String, Object> call) {
        Map<String, Object> load = new LinkedHashMap<>(call);
        load.put("cmd", "wheel");
        load.put("token", login(user));
        return send(load);
    }

    private String login(String user) {
        Map<String, Object> reply = send(Map.of("cmd", "mk_token", "eauth", "file", "username", user, "password", "pw"));
        assertThat(reply).doesNotContainKey("error");
        return Wire.string(reply, "token");
    }

    private Map<String, Object> send(Map<String, Object> load) {
        byte[] reply = client.request(RequestEnvelope.clear(load).encode(), WAIT);
        return Wire.map(Wire.asMap(SaltPack.unpack(reply)), "load");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
