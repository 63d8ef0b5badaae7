package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The migration the docs describe: a real supervisord (Debian's, /usr/bin/supervisord) runs the programs of a
 * {@code conf.d}; it is stopped, and a jsalt minion pointed at the same {@code conf.d} supervises the same
 * processes, by the same names (its [group:x] included), each running with the command the file gives it.
 */
class SupervisordConfDEndToEndTest {
    @TempDir
    Path tmp;
    private Cluster cluster;
    private Process supervisord;
    private final List<Long> pids = new ArrayList<>();

    @AfterEach
    void stopAll() {
        if (supervisord != null) {
            supervisord.descendants().forEach(ProcessHandle::destroyForcibly);
            supervisord.destroyForcibly();
        }
        if (cluster != null) {
            cluster.close();
        }
        pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    private void writeConfD(Path confD) throws IOException {
        Files.createDirectories(confD);
        Files.writeString(confD.resolve("web.conf"), """
                ; a program as Debian's packages ship them
                [program:web]
                command=sleep 1001
                numprocs=2
                process_name=%(program_name)s_%(process_num)02d
                autorestart=true
                startsecs=0
                stdout_logfile=%(here)s/../log/%(program_name)s_%(process_num)02d.log
                """);
        Files.writeString(confD.resolve("worker.ini"), """
                [program:worker]
                command = sh -c 'echo started; exec sleep 1002'
                startsecs = 0
                redirect_stderr = true
                stdout_logfile = %(here)s/../log/worker.log

                [group:backend]
                programs = worker
                """);
        Files.createDirectories(confD.resolveSibling("log"));
    }

    /** The names on the {@code name RUNNING pid ...} lines of supervisorctl's status or jsalt's status_raw. */
    private static Set<String> runningNames(String status) {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s*(\\S+)\\s+RUNNING\\s+pid (\\d+)").matcher(status);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private String supervisorctl(Path conf, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/supervisorctl", "-c", conf.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }

    @Test
    void aMinionSupervisesTheProgramsOfARealSupervisordConfD() throws Exception {
        Path confD = tmp.resolve("etc/supervisor/conf.d");
        writeConfD(confD);
        Path conf = tmp.resolve("etc/supervisor/supervisord.conf");
        Files.writeString(conf, """
                [unix_http_server]
                file=%(here)s/supervisor.sock
                [supervisord]
                logfile=%(here)s/supervisord.log
                pidfile=%(here)s/supervisord.pid
                childlogdir=%(here)s
                [rpcinterface:supervisor]
                supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface
                [supervisorctl]
                serverurl=unix://%(here)s/supervisor.sock
                [include]
                files = conf.d/*.conf conf.d/*.ini
                """);
        supervisord = new ProcessBuilder("/usr/bin/supervisord", "-n", "-c", conf.toString())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("supervisord.out").toFile()).start();
        Set<String> expected = Set.of("web:web_00", "web:web_01", "backend:worker");
        String[] before = {""};
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            before[0] = supervisorctl(conf, "status");
            return runningNames(before[0]).equals(expected);
        });
        supervisord.destroy(); // TERM: supervisord stops its programs, then exits
        assertThat(supervisord.waitFor(60, TimeUnit.SECONDS)).isTrue();

        cluster = new Cluster(tmp); // root_dir: the conf.d, under it, is taken as it is
        cluster.startMaster("auto_accept: True");
        cluster.startMinion("m1", "supervisor_dir: " + confD);
        String[] after = {""};
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Cluster.Result r = cluster.jsalt("m1", "supervisord.status_raw");
            after[0] = r.stdout();
            return r.exitCode() == 0 && runningNames(after[0]).size() == 3;
        });

        // the same names as supervisorctl's, [group:backend] included
        assertThat(runningNames(after[0])).isEqualTo(expected);
        for (String name : List.of("web_00", "web_01", "worker")) {
            Cluster.Result pid = cluster.jsalt("m1", "supervisor.pid", name, "--out", "json");
            long p = Long.parseLong(pid.stdout().replaceAll("(?s).*\"m1\":\\s*(\\d+).*", "$1"));
            pids.add(p);
            String command = ProcessHandle.of(p).flatMap(h -> h.info().commandLine()).orElse("");
            assertThat(command).as(name).endsWith(name.equals("worker") ? "sleep 1002" : "sleep 1001");
        }
        assertThat(confD.resolveSibling("log").resolve("worker.log")).content().contains("started");
        Cluster.Result tail = cluster.run("io.jsalt.cli.run.RunCommand", "-c", cluster.masterConfigDir().toString(),
                "supervisor.tail", "m1", "worker", "lines=5");
        assertThat(tail.exitCode()).as(tail.toString()).isZero();
        assertThat(tail.stdout()).contains("started");
    }
}
