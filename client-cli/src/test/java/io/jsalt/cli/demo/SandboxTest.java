package io.jsalt.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.config.MasterConfig;
import io.jsalt.config.MinionConfig;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's folder: configs that load, everything under one root, and a wipe that only wipes a sandbox. */
class SandboxTest {
    @TempDir
    Path tmp;

    @Test
    void theMasterConfigLoadsWithItsPortsAndEveryPathUnderTheRoot() throws Exception {
        Sandbox sandbox = new Sandbox(tmp.resolve("demo"));

        sandbox.writeMasterConfig(24505, 24506);
        MasterConfig config = MasterConfig.load(sandbox.masterConfigDir());

        assertThat(config.interfaceAddress()).isEqualTo("127.0.0.1");
        assertThat(config.publishPort()).isEqualTo(24505);
        assertThat(config.retPort()).isEqualTo(24506);
        assertThat(config.rootDir()).isEqualTo(sandbox.root());
        assertThat(config.pkiDir()).startsWithRaw(sandbox.root());
        assertThat(config.cachedir()).startsWithRaw(sandbox.root());
        assertThat(config.sockDir()).startsWithRaw(sandbox.root());
    }

    @Test
    void eachMinionConfigPointsAtTheMasterAndHasItsOwnFolders() throws Exception {
        Sandbox sandbox = new Sandbox(tmp.resolve("demo"));

        sandbox.writeMinionConfig("minion-1", 24505, 24506);
        sandbox.writeMinionConfig("minion-2", 24505, 24506);
        MinionConfig one = MinionConfig.load(sandbox.minionConfigDir("minion-1"));
        MinionConfig two = MinionConfig.load(sandbox.minionConfigDir("minion-2"));

        assertThat(one.id()).isEqualTo("minion-1");
        assertThat(one.master()).isEqualTo("127.0.0.1");
        assertThat(one.masterPort()).isEqualTo(24506);
        assertThat(one.publishPort()).isEqualTo(24505);
        assertThat(one.pkiDir()).startsWithRaw(sandbox.root()).isNotEqualTo(two.pkiDir());
        assertThat(one.cachedir()).isNotEqualTo(two.cachedir());
        assertThat(one.sockDir()).isNotEqualTo(two.sockDir());
    }

    @Test
    void theRootIsAbsoluteAndNormalised() {
        Sandbox sandbox = new Sandbox(tmp.resolve("a/../demo"));

        assertThat(sandbox.root()).isEqualTo(tmp.resolve("demo").toAbsolutePath().normalize());
        assertThat(sandbox.pidFile("master")).isEqualTo(sandbox.root().resolve("run/master.pid"));
    }

    @Test
    void wipeRemovesAPreviousDemoButKeepsTheRoot() throws Exception {
        Sandbox sandbox = new Sandbox(tmp.resolve("demo"));
        sandbox.writeMasterConfig(24505, 24506);
        Files.createDirectories(sandbox.root().resolve("etc/jsalt/pki/master/minions"));
        Files.writeString(sandbox.root().resolve("etc/jsalt/pki/master/minions/old"), "key");

        sandbox.wipe();

        assertThat(sandbox.root()).isEmptyDirectory();
    }

    @Test
    void wipeRefusesAFolderThatIsNotADemoSandbox() throws Exception {
        Path precious = tmp.resolve("home");
        Files.createDirectories(precious);
        Files.writeString(precious.resolve("thesis.txt"), "years of work");

        assertThatThrownBy(() -> new Sandbox(precious).wipe()).isInstanceOfSatisfying(CliException.class,
                e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE));
        assertThat(precious.resolve("thesis.txt")).hasContent("years of work");
    }

    @Test
    void wipeOfAnEmptyOrMissingFolderDoesNothing() throws Exception {
        new Sandbox(tmp.resolve("missing")).wipe();
        Files.createDirectories(tmp.resolve("empty"));
        new Sandbox(tmp.resolve("empty")).wipe();

        assertThat(tmp.resolve("missing")).doesNotExist();
        assertThat(tmp.resolve("empty")).isEmptyDirectory();
    }

    @Test
    void freePortGivesAPortThatCanBeBound() throws Exception {
        int port = Sandbox.freePort();

        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(s.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void theExamplesTreeLandsInTheMastersDefaultFileAndPillarRoots() throws Exception {
        Sandbox sandbox = new Sandbox(tmp.resolve("demo"));
        sandbox.writeMasterConfig(24505, 24506);

        sandbox.installExamples(Path.of("..", "examples"));
        MasterConfig config = MasterConfig.load(sandbox.masterConfigDir());

        assertThat(config.fileRoots().get("base")).singleElement()
                .satisfies(root -> assertThat(root.resolve("demo/init.sls")).isRegularFile());
        assertThat(config.fileRoots().get("base").get(0).resolve("top.sls")).isRegularFile();
        assertThat(config.pillar().roots().get("base").get(0).resolve("demo.sls")).isRegularFile();
    }
}
