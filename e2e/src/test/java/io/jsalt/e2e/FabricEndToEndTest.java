package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * One master and two minions, each its own JVM, taken through an operator's first session: keys pending,
 * accepted, jobs run, bad traffic shrugged off, a minion stopped. The steps share the cluster and run in
 * order, each leaving it as the next expects.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("security") // its steps hold two attacks (malformed frames, a return naming another minion) on a cluster they build in order
class FabricEndToEndTest {
    private Cluster cluster;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws IOException {
        cluster = new Cluster(tmp);
        cluster.startMaster();
        cluster.startMinion("alpha");
        cluster.startMinion("beta");
    }

    @AfterAll
    void stopCluster() {
        cluster.close();
    }

    @Test
    @Order(1)
    void newMinionKeysWaitAsPendingUntilAccepted() throws Exception {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(cluster.key("-l", "pre").stdout()).contains("alpha", "beta"));

        Cluster.Result ping = cluster.jsalt("-t", "3", "*", "test.ping");
        assertThat(ping.stderr()).contains("No minions matched the target");
        assertThat(ping.exitCode()).isEqualTo(2);

        Cluster.Result accepted = cluster.key("-A", "-y");
        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        assertThat(accepted.stdout()).contains("Key for minion alpha accepted.", "Key for minion beta accepted.");
        assertThat(cluster.key("-L").stdout()).startsWith("Accepted Keys:\nalpha\nbeta\n");
    }

    @Test
    @Order(2)
    void acceptedMinionsAnswerPing() throws Exception {
        awaitAllAnswer();
        Cluster.Result ping = cluster.jsalt("*", "test.ping");
        assertThat(ping.exitCode()).as(ping.toString()).isZero();
        assertThat(ping.stdout()).contains("alpha:\n    True\n", "beta:\n    True\n");
    }

    @Test
    @Order(3)
    void cmdRunReturnsOutputAndTheCommandsRetcode() throws Exception {
        Cluster.Result ok = cluster.jsalt("--out", "json", "--static", "alpha", "cmd.run", "echo hello jsalt");
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        assertThat(ok.stdout()).contains("\"alpha\": \"hello jsalt\"");

        Cluster.Result failing = cluster.jsalt("-L", "alpha,beta", "cmd.run", "sh -c 'echo out; exit 3'");
        assertThat(failing.exitCode()).as(failing.toString()).isEqualTo(1);
        assertThat(failing.stdout()).contains("alpha:\n    out\n", "beta:\n    out\n");

        Cluster.Result unknown = cluster.jsalt("-E", "al.*", "no.such_function");
        assertThat(unknown.stdout()).contains("'no.such_function' is not available.");
        assertThat(unknown.exitCode()).isEqualTo(1);
    }

    @Test
    @Order(3)
    void sysDocShowsAFunctionsDocstringThroughJsalt() throws Exception {
        Cluster.Result doc = cluster.jsalt("alpha", "sys.doc", "test.ping");
        assertThat(doc.exitCode()).as(doc.toString()).isZero();
        assertThat(doc.stdout()).contains("alpha:", "test.ping:", "Used to make sure the minion is up and responding.");
    }

    @Test
    @Order(4)
    void malformedFramesOnTheRequestPortCostOneLogLineEach() throws Exception {
        try (Socket s = new Socket("127.0.0.1", cluster.retPort)) {
            OutputStream out = s.getOutputStream();
            out.write(new byte[] {(byte) 0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f}); // a ZMTP greeting with garbage after it
            out.write("GET / HTTP/1.0\r\n\r\n".getBytes());
            out.flush();
        }
        MalformedPeer.sendGarbageOverZmq(cluster.retPort);
        await().atMost(Duration.ofSeconds(10)).until(() -> Cluster.read(cluster.masterLog()).contains("malformed request"));

        Cluster.Result ping = cluster.jsalt("*", "test.ping");
        assertThat(ping.exitCode()).as(ping.toString()).isZero();
        assertThat(ping.stdout()).contains("alpha:\n    True\n", "beta:\n    True\n");
    }

    @Test
    @Order(5)
    void aReturnNamingAnotherMinionIsRejected() throws Exception {
        ForgedReturn forged = ForgedReturn.signInAs("alpha", cluster.minionPki("alpha"), cluster.retPort);
        Object reply = forged.sendReturn("beta", "20260101000000000001", "forged");
        assertThat(reply).isEqualTo(false);
        Object unsigned = forged.sendUnsignedReturn("beta", "20260101000000000002", "forged");
        assertThat(unsigned).isEqualTo(false);
        assertThat(Cluster.read(cluster.masterLog())).contains("not signed by the accepted key of beta")
                .as("beta signed its sign-in: pinned").contains("unsigned, and beta signs its returns");
        assertThat(forged.sendReturn("alpha", "20260101000000000003", "made up"))
                .as("a jid the master never issued").isEqualTo(false);
        Cluster.Result sleeping = cluster.jsalt("--async", "alpha", "test.sleep", "20");
        java.util.regex.Matcher jid = java.util.regex.Pattern.compile("[0-9]{20}").matcher(sleeping.stdout());
        assertThat(jid.find()).as(sleeping.toString()).isTrue();
        Object own = forged.sendReturn("alpha", jid.group(), "genuine");
        assertThat(own).as("a return signed by its own key, for a job that targets it, is taken").isEqualTo(true);
        // a second one is answered true (stored already: with several masters, one may have stored it and died
        // before answering) but neither stored nor fired again
        assertThat(forged.sendReturn("alpha", jid.group(), "again")).as("stored already").isEqualTo(true);
        Cluster.Result lookup = cluster.run("io.jsalt.cli.run.RunCommand", "-c", cluster.masterConfigDir().toString(),
                "jobs.lookup_jid", jid.group());
        assertThat(lookup.stdout()).as("only once per (jid, id)").contains("genuine").doesNotContain("again");
        assertThat(Cluster.read(cluster.masterLog())).contains("return for job " + jid.group() + " from alpha already stored");

        // the return MAC: alpha's own sign-in secret binds returns to alpha only
        Cluster.Result betaSleeps = cluster.jsalt("--async", "beta", "test.sleep", "20");
        java.util.regex.Matcher betaJid = java.util.regex.Pattern.compile("[0-9]{20}").matcher(betaSleeps.stdout());
        assertThat(betaJid.find()).as(betaSleeps.toString()).isTrue();
        assertThat(forged.sendMacedReturn("beta", betaJid.group(), "forged")).as("MACed with alpha's secret under beta's id")
                .isEqualTo(false);
        Cluster.Result alphaSleeps = cluster.jsalt("--async", "alpha", "test.sleep", "20");
        java.util.regex.Matcher alphaJid = java.util.regex.Pattern.compile("[0-9]{20}").matcher(alphaSleeps.stdout());
        assertThat(alphaJid.find()).as(alphaSleeps.toString()).isTrue();
        assertThat(forged.sendMacedReturn("alpha", alphaJid.group(), "genuine")).as("MACed with its own secret").isEqualTo(true);
        assertThat(forged.sendMacedReturn("alpha", alphaJid.group(), "genuine")).as("sent again: stored already").isEqualTo(true);
    }

    @Test
    @Order(6)
    void aStoppedMinionIsReportedAsNotConnectedAndTheExitCodeSaysSo() throws Exception {
        cluster.stopMinion("beta");
        long start = System.nanoTime();
        Cluster.Result ping = cluster.jsalt("-t", "3", "*", "test.ping");
        long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
        assertThat(ping.exitCode()).as(ping.toString()).isEqualTo(2);
        assertThat(ping.stdout()).contains("alpha:\n    True\n", "beta:\n    Minion did not return. [Not connected]\n");
        // -t, then one saltutil.find_job round of gather_job_timeout (10 s), as Salt waits
        assertThat(seconds).as("gave up after the timeout and one find_job round, not later").isLessThan(25);
    }

    private void awaitAllAnswer() {
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Cluster.Result r = cluster.jsalt("-t", "3", "*", "test.ping");
            assertThat(r.exitCode()).as(r.toString()).isZero();
        });
        assertThat(Files.exists(cluster.minionPki("alpha").resolve("minion_master.pub"))).isTrue();
    }
}
