package io.jsalt.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * jsalt minions on a real salt-master 3006.8, both in their default configs (issue 15, case 2), driven
 * with Salt's own tools: {@code salt}, {@code salt-key}, {@code salt-run jobs.lookup_jid},
 * {@code salt-run manage.up} and the salt-master's event bus ({@code salt-run state.event}). The steps
 * share these processes and run in order.
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JsaltMinionsOnSaltMasterTest {
    private static final Pattern JID = Pattern.compile("job ID: ([0-9]{20})");

    Path root;
    Processes processes;
    JsaltSide jsalt;
    SaltSide salt;

    @BeforeAll
    void startFleet(@TempDir Path tmp) throws Exception {
        root = tmp;
        processes = new Processes();
        jsalt = new JsaltSide(processes, root.resolve("j"));
        salt = new SaltSide(processes, root.resolve("s")); // short: Salt's IPC socket paths must fit 107 bytes
        salt.startMaster();
        jsalt.startMinion("jm1", salt.publishPort(), salt.retPort());
        jsalt.startMinion("jm2", salt.publishPort(), salt.retPort());
    }

    @AfterAll
    void stopFleet() {
        processes.close();
    }

    @Test
    @Order(1)
    void aJsaltMinionWaitsPendingUntilSaltKeyAcceptsItThenAnswers() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> salt.pending("jm1") && salt.pending("jm2"));
        Processes.Result listed = salt.saltKey("-L", "--out", "json");
        assertThat(Json.object(listed.stdout()).get("minions_pre")).as(listed.toString()).isEqualTo(List.of("jm1", "jm2"));

        assertThat(salt.saltKey("-A", "-y").exitCode()).isZero();

        answersTrue("jm1");
        assertThat(json("-L", "jm1,jm2", "test.ping")).isEqualTo(Map.of("jm1", true, "jm2", true));
    }

    @Test
    @Order(2)
    void runsTheEverydayFunctionsOnTheJsaltMinion() throws Exception {
        assertThat(json("jm1", "cmd.run", "echo hello")).containsEntry("jm1", "hello");

        Map<String, Object> arg = map(json("jm1", "test.arg", "1", "two=2").get("jm1"));
        assertThat(arg.get("args")).isEqualTo(List.of(1));
        assertThat(map(arg.get("kwargs"))).containsEntry("two", 2);

        Map<String, Object> grains = map(json("jm1", "grains.items").get("jm1"));
        assertThat(grains).containsEntry("id", "jm1").containsKey("os").containsKey("kernel");

        assertThat(json("-G", "os:" + grains.get("os"), "test.ping")).isEqualTo(Map.of("jm1", true, "jm2", true));
        assertThat(json("-C", "jm1 or G@id:jm2", "test.ping")).isEqualTo(Map.of("jm1", true, "jm2", true));
        assertThat(json("-C", "* and not jm2", "test.ping")).isEqualTo(Map.of("jm1", true));
    }

    @Test
    @Order(3)
    void carriesAOneMegabyteReturn() throws Exception {
        Object out = json("jm1", "cmd.run", "head -c 1000000 /dev/zero | tr '\\0' x", "python_shell=True").get("jm1");

        assertThat(out).isInstanceOf(String.class);
        assertThat((String) out).hasSize(1_000_000).matches("x+");
    }

    @Test
    @Order(4)
    void anAsyncJobIsFoundBySaltRunJobsLookupJid() throws Exception {
        String jid = jid(salt.salt("--async", "jm1", "test.echo", "later"));

        AtomicReference<Map<String, Object>> found = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Processes.Result r = salt.saltRun("jobs.lookup_jid", jid, "--out", "json");
            found.set(r.exitCode() == 0 && r.stdout().strip().startsWith("{") ? Json.object(r.stdout()) : Map.of());
            return found.get().containsKey("jm1");
        });
        assertThat(found.get()).containsEntry("jm1", "later");
    }

    @Test
    @Order(5)
    void saltRunManageUpCountsTheJsaltMinions() throws Exception {
        Processes.Result up = salt.saltRun("manage.up", "--out", "json");

        assertThat(up.exitCode()).as(up.toString()).isZero();
        assertThat(Json.parse(up.stdout())).isEqualTo(List.of("jm1", "jm2"));
    }

    @Test
    @Order(6)
    void theSaltMastersEventBusShowsTheJsaltMinionsJobStartAndReturn() throws Exception {
        Path out = root.resolve("events-jm1.txt");
        Process events = salt.streamEvents(out, "salt/job/*");
        AtomicReference<String> jid = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            jid.set(jid(salt.salt("--async", "jm1", "test.ping")));
            if (!Processes.within(Duration.ofSeconds(10), () -> Processes.read(out).contains("salt/job/" + jid.get() + "/ret/jm1"))) {
                return false; // the listener was not connected yet: another job
            }
            return Processes.read(out).contains("salt/job/" + jid.get() + "/new\t");
        });
        Processes.stop(events);

        String ret = Processes.read(out).lines().filter(l -> l.startsWith("salt/job/" + jid.get() + "/ret/jm1\t"))
                .findFirst().orElseThrow();
        Map<String, Object> data = Json.object(ret.substring(ret.indexOf('\t') + 1));
        assertThat(data).containsEntry("id", "jm1").containsEntry("return", true).containsEntry("fun", "test.ping")
                .containsEntry("success", true);
    }

    @Test
    @Order(7)
    void killJobStopsASleepOnTheJsaltMinion() throws Exception {
        String jid = jid(salt.salt("--async", "jm1", "test.sleep", "120"));
        await().atMost(Duration.ofSeconds(30)).until(() -> runningJids("jm1").contains(jid));

        assertThat(salt.salt("jm1", "saltutil.kill_job", jid, "-t", "10").exitCode()).isZero();

        await().atMost(Duration.ofSeconds(30)).until(() -> !runningJids("jm1").contains(jid));
    }

    @Test
    @Order(8)
    void aJsaltMinionDeletedWithSaltKeyCanNoLongerReadJobsAndComesBackPending() throws Exception {
        assertThat(salt.saltKey("-d", "jm1", "-y").exitCode()).isZero();

        // the salt-master rotated its AES key: jm1's next publication fails its HMAC, it signs in again, pending
        List<String> published = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            published.add(jid(salt.salt("--async", "*", "test.ping")));
            return salt.pending("jm1");
        });
        for (String jid : published) {
            assertThat(Processes.read(jsalt.minionLog("jm1"))).as("jm1 ran job %s", jid).doesNotContain(jid);
        }
    }

    @Test
    @Order(9)
    void afterARestartOfTheSaltMasterTheJsaltMinionAnswersAgain() throws Exception {
        assertThat(salt.saltKey("-a", "jm1", "-y").exitCode()).isZero();
        answersTrue("jm1");

        salt.restartMaster();

        answersTrue("jm1");
        assertThat(json("-L", "jm1,jm2", "test.ping")).isEqualTo(Map.of("jm1", true, "jm2", true));
    }

    private void answersTrue(String id) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Processes.Result r = salt.salt("-t", "3", id, "test.ping", "--out", "json", "--static");
            return r.exitCode() == 0 && r.stdout().strip().startsWith("{") && Json.object(r.stdout()).equals(Map.of(id, true));
        });
    }

    /** {@code salt args... --out json --static -t 10}, as one object. */
    private Map<String, Object> json(String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--out", "json", "--static", "-t", "10"));
        Processes.Result r = salt.salt(all.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return Json.object(r.stdout());
    }

    private List<String> runningJids(String id) throws IOException, InterruptedException {
        Object running = json(id, "saltutil.running").get(id);
        return ((List<?>) running).stream().map(j -> String.valueOf(((Map<?, ?>) j).get("jid"))).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }

    private static String jid(Processes.Result published) {
        Matcher m = JID.matcher(published.stdout());
        assertThat(m.find()).as(published.toString()).isTrue();
        return m.group(1);
    }
}
