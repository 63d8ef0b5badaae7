package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** reread and update over a conf.d folder of Supervisor ini files, with real processes. */
class UpdateTest {
    @TempDir
    Path dir;
    private SupervisorHarness harness;

    @AfterEach
    void killEveryChild() {
        if (harness != null) {
            harness.close();
        }
    }

    private void write(String program, String command) throws Exception {
        Path conf = Files.createDirectories(dir.resolve("supervisor.d"));
        Path file = Files.writeString(conf.resolve(program + ".conf"),
                "[program:" + program + "]\ncommand=" + command + "\nstartsecs=0\n");
        // whatever the umask: the supervisor refuses files others may write
        Files.setPosixFilePermissions(conf, PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void updateRestartsOnlyChangedProgramsAddsNewOnesAndRemovesGoneOnes() throws Exception {
        write("keep", "sleep 1000");
        write("change", "sleep 1000");
        write("gone", "sleep 1000");
        harness = new SupervisorHarness(dir, Map.of()).start();
        long keepPid = harness.awaitState("keep", ProcessState.RUNNING).pid();
        harness.awaitState("change", ProcessState.RUNNING);
        long gonePid = harness.awaitState("gone", ProcessState.RUNNING).pid();

        write("change", "sleep 2000");
        write("fresh", "sleep 1000");
        Files.delete(dir.resolve("supervisor.d/gone.conf"));

        SupervisordModule module = new SupervisordModule(harness.supervisor);
        assertThat(module.reread()).isEqualTo("gone: disappeared\nchange: changed\nfresh: available");
        assertThat(harness.supervisor.status(null)).extracting(ProcessSnapshot::name).containsExactly("change", "gone", "keep");

        assertThat(module.update()).isEqualTo("gone: stopped\ngone: removed process group\nchange: stopped\n"
                + "change: updated process group\nfresh: added process group");

        assertThat(harness.status("keep").pid()).as("an unchanged program is not touched").isEqualTo(keepPid);
        assertThat(harness.awaitState("change", ProcessState.RUNNING).pid()).isPositive();
        assertThat(ProcessHandle.of(harness.status("change").pid()).flatMap(h -> h.info().commandLine()))
                .hasValueSatisfying(line -> assertThat(line).contains("2000"));
        harness.awaitState("fresh", ProcessState.RUNNING);
        assertThat(harness.supervisor.status(null)).extracting(ProcessSnapshot::name).containsExactly("change", "fresh", "keep");
        assertThat(ProcessHandle.of(gonePid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(module.reread()).isEqualTo("No config updates to processes");
        assertThat(harness.removed).as("the master is told to drop the row of gone only").containsExactly("gone");
    }

    @Test
    void aProgramChangedToFewerProcessesReportsTheProcessesItNoLongerHasAsRemoved() throws Exception {
        Path conf = Files.createDirectories(dir.resolve("supervisor.d"));
        Path file = conf.resolve("web.conf");
        Files.setPosixFilePermissions(conf, PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(Files.writeString(file, "[program:web]\ncommand=sleep 1000\nstartsecs=0\nnumprocs=3\n"
                + "process_name=%(program_name)s_%(process_num)d\n"), PosixFilePermissions.fromString("rw-------"));
        harness = new SupervisorHarness(dir, Map.of()).start();
        harness.awaitState("web_2", ProcessState.RUNNING);

        Files.writeString(file, "[program:web]\ncommand=sleep 1000\nstartsecs=0\nnumprocs=2\n"
                + "process_name=%(program_name)s_%(process_num)d\n");
        assertThat(new SupervisordModule(harness.supervisor).update()).isEqualTo("web: stopped\nweb: updated process group");

        assertThat(harness.removed).containsExactly("web_2");
        assertThat(harness.supervisor.status(null)).extracting(ProcessSnapshot::name).containsExactly("web_0", "web_1");
    }

    @Test
    void aGroupSectionPutsItsProgramsInOneGroupStartedAndStoppedTogether() throws Exception {
        write("a", "sleep 1000");
        write("b", "sleep 1000");
        write("solo", "sleep 1000");
        Files.setPosixFilePermissions(Files.writeString(dir.resolve("supervisor.d/groups.conf"),
                "[group:web]\nprograms=a,b\n"), PosixFilePermissions.fromString("rw-------"));
        harness = new SupervisorHarness(dir, Map.of()).start();
        harness.awaitState("a", ProcessState.RUNNING);
        harness.awaitState("b", ProcessState.RUNNING);

        SupervisordModule module = new SupervisordModule(harness.supervisor);
        assertThat(module.status(null)).containsOnlyKeys("web:a", "web:b", "solo");
        assertThat(harness.supervisor.stopProcesses("web:")).containsExactlyInAnyOrder("web:a: stopped", "web:b: stopped");
        assertThat(harness.status("solo").state()).isEqualTo(ProcessState.RUNNING);

        // a group naming a program that is not defined changes nothing
        Files.writeString(dir.resolve("supervisor.d/groups.conf"), "[group:web]\nprograms=a,b,ghost\n");
        assertThat(module.update()).startsWith("ERROR: ").contains("groups.conf").contains("ghost");
        Files.writeString(dir.resolve("supervisor.d/groups.conf"), "[group:web]\nprograms=a\n[group:api]\nprograms=a\n");
        assertThat(module.reread()).startsWith("ERROR: ").contains("a program in one group only");
    }

    @Test
    void aBrokenDefinitionChangesNothing() throws Exception {
        write("keep", "sleep 1000");
        harness = new SupervisorHarness(dir, Map.of()).start();
        long pid = harness.awaitState("keep", ProcessState.RUNNING).pid();
        Files.setPosixFilePermissions(Files.writeString(dir.resolve("supervisor.d/keep.conf"),
                "[program:keep]\ncommand=sleep 5\nstartsecs=later\n"), PosixFilePermissions.fromString("rw-------"));

        SupervisordModule module = new SupervisordModule(harness.supervisor);
        assertThat(module.update()).startsWith("ERROR: ").contains("keep.conf").contains("startsecs");
        assertThat(module.reread()).startsWith("ERROR: ");
        assertThat(harness.status("keep").pid()).isEqualTo(pid);
        assertThat(harness.status("keep").state()).isEqualTo(ProcessState.RUNNING);
    }

    @Test
    void updateAppliesAnEditOfTheMinionConfigsSupervisorSection() throws Exception {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        String head = "root_dir: " + dir + "\nid: m1\ncachedir: /cache\nsupervisor:\n  app:\n    startsecs: 0\n";
        Files.writeString(conf.resolve("minion"), head + "    command: sleep 1000\n");
        java.util.List<Long> pids = new java.util.concurrent.CopyOnWriteArrayList<>();
        Supervisor supervisor = Supervisor.forMinion(io.jsalt.config.MinionConfig.load(conf), s -> pids.add(s.pid()));
        try {
            supervisor.start();
            assertThat(supervisor.status("app")).singleElement().extracting(ProcessSnapshot::state).isEqualTo(ProcessState.RUNNING);
            SupervisorModule module = new SupervisorModule(supervisor);
            assertThat(module.reread()).isEqualTo("No config updates to processes");

            Files.writeString(conf.resolve("minion"), head + "    command: sleep 2000\n");

            assertThat(module.reread()).isEqualTo("app: changed");
            assertThat(module.update()).isEqualTo("app: stopped\napp: updated process group");
            long pid = supervisor.status("app").get(0).pid();
            assertThat(ProcessHandle.of(pid).flatMap(h -> h.info().commandLine()))
                    .hasValueSatisfying(line -> assertThat(line).contains("2000"));
            assertThat(supervisor.stdoutLog("app")).contains(dir.resolve("cache/supervisor/log/app-stdout.log"));
        } finally {
            supervisor.close();
            pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
    }
}
