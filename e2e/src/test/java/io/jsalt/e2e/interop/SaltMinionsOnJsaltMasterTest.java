package io.jsalt.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
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
 * Real salt-minions 3006.8 on a jsalt master, both in their default configs (issue 15, cases 1, 4 and 5):
 * one salt-minion that does not sign (sm1), and later one with {@code minion_sign_messages: True} (sm2),
 * beside two jsalt minions. The steps share these processes and run in order.
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SaltMinionsOnJsaltMasterTest {
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
        RealSalt.env(); // installs Salt's packages on first use, before any wait starts
        jsalt.startMaster();
        salt.startMinion("sm1", jsalt.publishPort(), jsalt.retPort());
        jsalt.startMinion("jm1", jsalt.publishPort(), jsalt.retPort());
        jsalt.startMinion("jm2", jsalt.publishPort(), jsalt.retPort());
    }

    @AfterAll
    void stopFleet() {
        processes.close();
    }

    @Test
    @Order(1)
    void aSaltMinionWaitsPendingUntilJsaltKeyAcceptsItThenAnswers() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> jsalt.pending("sm1") && jsalt.pending("jm1") && jsalt.pending("jm2"));
        assertThat(jsalt.key("-L").stdout()).contains("Unaccepted Keys:\njm1\njm2\nsm1");

        assertThat(jsalt.key("-a", "sm1", "-y").exitCode()).isZero();
        assertThat(jsalt.key("-a", "jm*", "-y").exitCode()).isZero();

        answersTrue("sm1");
        assertThat(ping("jm1", "jm2")).containsEntry("jm1", true).containsEntry("jm2", true);
        // the one WARN at its sign-in says why its returns are unverified and how to make it strict
        assertThat(Processes.read(jsalt.masterLog())).contains("sm1 does not sign its requests")
                .contains("minion_sign_messages: True").doesNotContain("jm1 does not sign");
    }

    @Test
    @Order(2)
    void runsTheEverydayFunctionsOnTheSaltMinion() throws Exception {
        assertThat(json("sm1", "cmd.run", "echo hello")).containsEntry("sm1", "hello");

        Map<String, Object> arg = map(json("sm1", "test.arg", "1", "two=2").get("sm1"));
        assertThat(arg.get("args")).isEqualTo(List.of(1));
        assertThat(map(arg.get("kwargs"))).containsEntry("two", 2);

        Map<String, Object> grains = map(json("sm1", "grains.items").get("sm1"));
        assertThat(grains).containsEntry("id", "sm1").containsKey("os").containsKey("kernel");
        String os = (String) grains.get("os");

        assertThat(json("-G", "os:" + os, "test.ping")).containsKeys("sm1", "jm1", "jm2");
        assertThat(json("-C", "sm1 or jm1", "test.ping")).containsOnlyKeys("sm1", "jm1");
        assertThat(json("-C", "* and not jm*", "test.ping")).containsOnlyKeys("sm1");
    }

    @Test
    @Order(3)
    void carriesAOneMegabyteReturn() throws Exception {
        // 1,000,000 bytes: a salt-minion's own event bus trims a return over max_event_size (1 MiB) to "VALUE_TRIMMED"
        Object out = json("sm1", "cmd.run", "head -c 1000000 /dev/zero | tr '\\0' x").get("sm1");

        assertThat(out).isInstanceOf(String.class);
        assertThat((String) out).hasSize(1_000_000).matches("x+");
    }

    @Test
    @Order(4)
    void anAsyncJobIsFoundByJobsLookupJid() throws Exception {
        Processes.Result published = jsalt.jsalt("--async", "sm1", "test.echo", "later");
        String jid = jid(published);

        AtomicReference<Map<String, Object>> found = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Processes.Result r = jsalt.run("jobs.lookup_jid", jid, "--out", "json");
            found.set(r.exitCode() == 0 ? Json.object(r.stdout()) : Map.of());
            return found.get().containsKey("sm1");
        });
        assertThat(found.get()).containsEntry("sm1", "later");
    }

    @Test
    @Order(5)
    void manageUpCountsTheSaltMinion() throws Exception {
        Processes.Result up = jsalt.run("manage.up", "--out", "json");

        assertThat(up.exitCode()).as(up.toString()).isZero();
        assertThat(Json.parse(up.stdout())).isEqualTo(List.of("jm1", "jm2", "sm1"));
    }

    @Test
    @Order(6)
    void jsaltEventShowsTheSaltMinionsJobStartAndReturn() throws Exception {
        Path out = root.resolve("events-sm1.json");
        Process events = jsalt.streamEvents(out, "salt/job/");
        // the listener connects while the jobs go: publish until one job's events are all on the stream
        AtomicReference<String> jid = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            jid.set(jid(jsalt.jsalt("--async", "sm1", "test.ping")));
            if (!Processes.within(Duration.ofSeconds(10), () -> Processes.read(out).contains("salt/job/" + jid.get() + "/ret/sm1"))) {
                return false; // the listener was not connected yet: another job
            }
            return Processes.read(out).contains("\"salt/job/" + jid.get() + "/new\"");
        });
        Processes.stop(events);

        String stream = Processes.read(out);
        assertThat(stream).contains("\"salt/job/" + jid.get() + "/new\"");
        String ret = stream.lines().filter(l -> l.contains("salt/job/" + jid.get() + "/ret/sm1")).findFirst().orElseThrow();
        Map<String, Object> data = map(Json.object(ret).get("data"));
        assertThat(data).containsEntry("id", "sm1").containsEntry("return", true).containsEntry("fun", "test.ping")
                .containsEntry("verified", false);
    }

    @Test
    @Order(7)
    void killJobStopsASleepOnTheSaltMinion() throws Exception {
        String jid = jid(jsalt.jsalt("--async", "sm1", "test.sleep", "120"));
        await().atMost(Duration.ofSeconds(30)).until(() -> runningJids("sm1").contains(jid));

        assertThat(jsalt.jsalt("sm1", "saltutil.kill_job", jid).exitCode()).isZero();

        await().atMost(Duration.ofSeconds(30)).until(() -> !runningJids("sm1").contains(jid));
    }

    @Test
    @Order(8)
    void aMixedFleetAnswersAsOneAndASigningSaltMinionIsVerified() throws Exception {
        salt.startMinion("sm2", jsalt.publishPort(), jsalt.retPort(), "minion_sign_messages: True");
        await().atMost(Duration.ofSeconds(60)).until(() -> jsalt.pending("sm2"));
        assertThat(jsalt.key("-a", "sm2", "-y").exitCode()).isZero();
        answersTrue("sm2");

        Path out = root.resolve("events-fleet.json");
        Process events = jsalt.streamEvents(out, "salt/job/");
        AtomicReference<Map<String, Object>> all = new AtomicReference<>();
        AtomicReference<String> jid = new AtomicReference<>();
        AtomicReference<Processes.Result> verbose = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Processes.Result r = jsalt.jsalt("-v", "*", "test.ping", "--out", "json", "--static");
            verbose.set(r);
            Matcher m = Pattern.compile("([0-9]{20})").matcher(r.stdout() + r.stderr());
            jid.set(m.find() ? m.group(1) : null);
            all.set(Json.object(r.stdout().substring(r.stdout().indexOf('{'))));
            return r.exitCode() == 0 && jid.get() != null
                    && Processes.read(out).contains("salt/job/" + jid.get() + "/ret/sm2")
                    && Processes.read(out).contains("salt/job/" + jid.get() + "/ret/sm1");
        });
        Processes.stop(events);
        assertThat(all.get()).isEqualTo(Map.of("sm1", true, "sm2", true, "jm1", true, "jm2", true));
        assertThat(verbose.get().stderr()).as("-v names the unverified returns")
                .contains("sm1: unverified return").doesNotContain("sm2: unverified").doesNotContain("jm1: unverified");

        assertThat(returnEvent(out, jid.get(), "sm2")).as("sm2 signs: verified").containsEntry("verified", true);
        assertThat(returnEvent(out, jid.get(), "jm1")).containsEntry("verified", true);
        assertThat(returnEvent(out, jid.get(), "sm1")).as("sm1 does not sign").containsEntry("verified", false);
        assertThat(Processes.read(jsalt.masterLog())).contains("sm2 signs its requests: pinned")
                .doesNotContain("sm2 does not sign its requests");
    }

    @Test
    @Order(9)
    void aDeletedSaltMinionCanNoLongerReadJobsAndComesBackPending() throws Exception {
        assertThat(jsalt.key("-d", "sm1", "-y").exitCode()).isZero();

        // the next publication fails its HMAC on sm1 (the session key was rotated): it signs in again, pending
        List<String> published = new java.util.ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            published.add(jid(jsalt.jsalt("--async", "*", "test.ping")));
            return jsalt.pending("sm1");
        });
        assertThat(jsalt.key("-L").stdout()).contains("Unaccepted Keys:\nsm1");
        for (String jid : published) {
            assertThat(salt.minionRan("sm1", jid)).as("sm1 decrypted job %s", jid).isFalse();
        }
    }

    @Test
    @Order(10)
    void afterARestartOfTheJsaltMasterTheSaltMinionAnswersAgain() throws Exception {
        assertThat(jsalt.key("-a", "sm1", "-y").exitCode()).isZero();
        answersTrue("sm1");

        jsalt.restartMaster();

        answersTrue("sm1");
        assertThat(ping("sm1", "sm2", "jm1", "jm2")).containsOnlyKeys("sm1", "sm2", "jm1", "jm2");
    }

    /** Waits until {@code jsalt <id> test.ping} answers True (a minion that just signed in, or came back). */
    private void answersTrue(String id) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Processes.Result r = jsalt.jsalt("-t", "3", id, "test.ping", "--out", "json", "--static");
            return r.exitCode() == 0 && Json.object(r.stdout()).equals(Map.of(id, true));
        });
    }

    private Map<String, Object> ping(String... ids) throws IOException, InterruptedException {
        return json("-L", String.join(",", ids), "test.ping");
    }

    /** {@code jsalt args... --out json --static}, as one object. */
    private Map<String, Object> json(String... args) throws IOException, InterruptedException {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("--out", "json", "--static"));
        Processes.Result r = jsalt.jsalt(all.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.toString()).isIn(0, 2);
        return r.stdout().isBlank() ? Map.of() : Json.object(r.stdout());
    }

    private List<String> runningJids(String id) throws IOException, InterruptedException {
        Object running = json(id, "saltutil.running").get(id);
        return ((List<?>) running).stream().map(j -> String.valueOf(((Map<?, ?>) j).get("jid"))).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> returnEvent(Path stream, String jid, String id) {
        String line = Processes.read(stream).lines().filter(l -> l.contains("\"salt/job/" + jid + "/ret/" + id + "\""))
                .findFirst().orElseThrow(() -> new AssertionError("no return event of " + id + " for " + jid));
        return (Map<String, Object>) Json.object(line).get("data");
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
