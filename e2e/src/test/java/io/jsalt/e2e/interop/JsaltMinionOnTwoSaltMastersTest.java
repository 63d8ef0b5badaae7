package io.jsalt.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A jsalt minion with {@code master: [s1, s2]} (hot/hot) against two real salt-masters 3006.8 set up as Salt's
 * multi-master documentation asks (s2 has a copy of s1's master key; the minion's key accepted on each with
 * salt-key): Salt's multi-master wire is per connection, so the minion signs in to both, answers each one's
 * jobs, and answers each job to the master that sent it (each salt-master's own job cache has only its own).
 */
@Tag("interop")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsaltMinionOnTwoSaltMastersTest {
    private static final Pattern JID = Pattern.compile("job ID: ([0-9]{20})");

    Processes processes;
    JsaltSide jsalt;
    SaltSide s1;
    SaltSide s2;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        processes = new Processes();
        jsalt = new JsaltSide(processes, tmp.resolve("j"));
        s1 = new SaltSide(processes, tmp.resolve("s1")); // short: Salt's IPC socket paths must fit 107 bytes
        s2 = new SaltSide(processes, tmp.resolve("s2"));
        s1.startMaster();
        Files.createDirectories(s2.masterPki());
        for (String file : List.of("master.pem", "master.pub")) {
            Files.copy(s1.masterPki().resolve(file), s2.masterPki().resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
        }
        s2.startMaster();
        jsalt.startMinion("jm", s1.publishPort(), s1.retPort(),
                "master: ['127.0.0.1:" + s1.retPort() + "', '127.0.0.1:" + s2.retPort() + "']");
        await().atMost(Duration.ofSeconds(60)).until(() -> s1.pending("jm") && s2.pending("jm"));
        assertThat(s1.saltKey("-A", "-y").exitCode()).isZero();
        assertThat(s2.saltKey("-A", "-y").exitCode()).isZero();
    }

    @AfterAll
    void stop() {
        processes.close();
    }

    @Test
    void answersEachSaltMastersJobsToThatMaster() throws Exception {
        echoes(s1, "from-s1");
        echoes(s2, "from-s2");

        String jid = jid(s1.salt("--async", "jm", "test.echo", "only-s1"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Processes.Result r = s1.saltRun("jobs.lookup_jid", jid, "--out", "json");
            return r.exitCode() == 0 && r.stdout().strip().startsWith("{") && Json.object(r.stdout()).equals(Map.of("jm", "only-s1"));
        });
        Processes.Result onS2 = s2.saltRun("jobs.lookup_jid", jid, "--out", "json");
        assertThat(onS2.stdout()).as("s2 never got s1's job nor its return").doesNotContain("only-s1");
        assertThat(Processes.read(jsalt.minionLog("jm"))).contains("jm signed in to master 127.0.0.1:" + s1.retPort(),
                "jm signed in to master 127.0.0.1:" + s2.retPort());
    }

    /** {@code salt jm test.echo <text>} on {@code master}, until the minion answers it (it signs in after acceptance). */
    private static void echoes(SaltSide master, String text) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Processes.Result r = master.salt("-t", "5", "jm", "test.echo", text, "--out", "json", "--static");
            return r.exitCode() == 0 && r.stdout().strip().startsWith("{") && Json.object(r.stdout()).equals(Map.of("jm", text));
        });
    }

    private static String jid(Processes.Result published) {
        Matcher m = JID.matcher(published.stdout());
        assertThat(m.find()).as(published.toString()).isTrue();
        return m.group(1);
    }
}
