package io.jsalt.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grain, grain_pcre, ipcidr, compound and nodegroup targets across real processes: three minions with
 * different static grains, which they report to the master at sign-in. Each job echoes its own token, so
 * which minions ran it shows in the master's return events; a minion the master did not expect must
 * have declined the job by re-checking the target with its own grains.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TargetingEndToEndTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private Cluster cluster;
    private EventTap bus;

    @BeforeAll
    void startCluster(@TempDir Path tmp) throws Exception {
        cluster = new Cluster(tmp);
        cluster.startMaster("auto_accept: True", "nodegroups:", "  webs: 'G@role:web'", "  pair: [m1, m3]",
                "  debian_webs: 'N@webs and G@os:Debian'");
        bus = EventTap.connect(cluster.masterSockDir(), Duration.ofSeconds(30));
        cluster.startMinion("m1", "grains:", "  role: web", "  os: Debian", "  ipv4: [127.0.0.1]", "  num_web: 1");
        cluster.startMinion("m2", "grains:", "  role: web", "  os: RedHat", "  ipv4: [127.0.0.2]", "  num_web: 2");
        cluster.startMinion("m3", "grains:", "  role: db", "  os: Debian", "  ipv4: [10.9.8.7]");
        Path cache = tmp.resolve("var/cache/jsalt/master/minions");
        await().atMost(WAIT).until(() -> Set.of("m1", "m2", "m3").stream()
                .allMatch(id -> Files.exists(cache.resolve(id).resolve("data.p"))));
        await().atMost(WAIT).untilAsserted(() -> assertThat(cluster.jsalt("*", "test.ping").stdout())
                .contains("m1:\n    True\n", "m2:\n    True\n", "m3:\n    True\n"));
    }

    @AfterAll
    void stopCluster() {
        if (bus != null) {
            bus.close();
        }
        cluster.close();
    }

    @Test
    @Order(1)
    void grainTargetsRunOnTheMinionsWhoseGrainsMatch() throws Exception {
        assertAnswered(echo("grain-glob", "-G", "role:web"), "grain-glob", "m1", "m2");
        assertAnswered(echo("grain-case", "-G", "os:debian"), "grain-case", "m1", "m3");
        assertAnswered(echo("grain-number", "-G", "num_web:2"), "grain-number", "m2");
    }

    @Test
    @Order(2)
    void grainPcreTargetsMatchTheValueByRegex() throws Exception {
        assertAnswered(echo("grain-pcre", "-P", "os:(Red|Cent)"), "grain-pcre", "m2");
    }

    @Test
    @Order(3)
    void ipcidrTargetsMatchTheIpv4Grain() throws Exception {
        assertAnswered(echo("cidr-loopback", "-S", "127.0.0.0/8"), "cidr-loopback", "m1", "m2");
        assertAnswered(echo("cidr-single", "-S", "10.9.8.7"), "cidr-single", "m3");
    }

    @Test
    @Order(4)
    void compoundTargetsCombineMatchersWithAndOrNotAndParentheses() throws Exception {
        assertAnswered(echo("compound-not", "-C", "G@role:web and not L@m2"), "compound-not", "m1");
        assertAnswered(echo("compound-parens", "-C", "( G@os:Debian and not G@role:web ) or E@m2"), "compound-parens", "m2", "m3");
        assertAnswered(echo("compound-cidr", "-C", "S@127.0.0.0/8 and m*"), "compound-cidr", "m1", "m2");
    }

    @Test
    @Order(5)
    void nodegroupsFromTheMasterConfigTargetTheirMembers() throws Exception {
        assertAnswered(echo("ng-grain", "-N", "webs"), "ng-grain", "m1", "m2");
        assertAnswered(echo("ng-list", "-N", "pair"), "ng-list", "m1", "m3");
        assertAnswered(echo("ng-nested", "-N", "debian_webs"), "ng-nested", "m1");
        assertAnswered(echo("ng-in-compound", "-C", "N@pair and not m3"), "ng-in-compound", "m1");
    }

    @Test
    @Order(6)
    void aTargetMatchingNothingExitsNonZeroAndSendsNothing() throws Exception {
        Cluster.Result none = cluster.jsalt("-G", "role:nothing", "test.echo", "none");
        assertThat(none.exitCode()).as(none.toString()).isNotZero();
        assertThat(none.stderr()).contains("No minions matched the target");
    }

    @Test
    @Order(7)
    void anInvalidTargetIsRefusedWithTheReason() throws Exception {
        Cluster.Result unbalanced = cluster.jsalt("-C", "( m1 or m2", "test.ping");
        assertThat(unbalanced.exitCode()).as(unbalanced.toString()).isNotZero();
        assertThat(unbalanced.stdout() + unbalanced.stderr()).contains("unbalanced parentheses");

        Cluster.Result unknown = cluster.jsalt("-N", "nope", "test.ping");
        assertThat(unknown.exitCode()).as(unknown.toString()).isNotZero();
        assertThat(unknown.stdout() + unknown.stderr()).contains("unknown nodegroup 'nope'");
    }

    @Test
    @Order(8)
    void noMinionRanAJobItWasNotTargetedBy() {
        // by now every stray return would have arrived: the minions re-checked each target themselves
        Map<String, Set<String>> expected = Map.ofEntries(
                Map.entry("grain-glob", Set.of("m1", "m2")), Map.entry("grain-case", Set.of("m1", "m3")),
                Map.entry("grain-number", Set.of("m2")), Map.entry("grain-pcre", Set.of("m2")),
                Map.entry("cidr-loopback", Set.of("m1", "m2")), Map.entry("cidr-single", Set.of("m3")),
                Map.entry("compound-not", Set.of("m1")), Map.entry("compound-parens", Set.of("m2", "m3")),
                Map.entry("compound-cidr", Set.of("m1", "m2")), Map.entry("ng-grain", Set.of("m1", "m2")),
                Map.entry("ng-list", Set.of("m1", "m3")), Map.entry("ng-nested", Set.of("m1")),
                Map.entry("ng-in-compound", Set.of("m1")));
        expected.forEach((token, ids) -> assertThat(ranBy(token)).as(token).isEqualTo(new TreeSet<>(ids)));
        assertThat(ranBy("none")).isEmpty();
    }

    private Cluster.Result echo(String token, String... target) throws IOException, InterruptedException {
        String[] args = new String[target.length + 2];
        System.arraycopy(target, 0, args, 0, target.length);
        args[target.length] = "test.echo";
        args[target.length + 1] = token;
        return cluster.jsalt(args);
    }

    private void assertAnswered(Cluster.Result r, String token, String... ids) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        for (String id : new String[] {"m1", "m2", "m3"}) {
            if (Set.of(ids).contains(id)) {
                assertThat(r.stdout()).as(r.toString()).contains(id + ":\n    " + token + "\n");
            } else {
                assertThat(r.stdout()).as(r.toString()).doesNotContain(id + ":");
            }
        }
        // the returns reach the bus before the CLI prints them; none from a minion that should have declined
        await().atMost(Duration.ofSeconds(10)).until(() -> ranBy(token).size() >= ids.length);
    }

    /** The minions whose return event carries {@code token}: those that ran that job. */
    private Set<String> ranBy(String token) {
        Set<String> ids = new TreeSet<>();
        for (String id : new String[] {"m1", "m2", "m3"}) {
            if (!bus.matching(EventTap.returnOf(id).and(e -> token.equals(e.data().get("return")))).isEmpty()) {
                ids.add(id);
            }
        }
        return ids;
    }
}
