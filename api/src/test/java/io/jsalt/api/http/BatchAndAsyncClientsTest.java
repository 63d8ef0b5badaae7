package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.master.jobs.Job;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.eclipse.jetty.util.ajax.JSON;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * salt-api's {@code local_batch}, {@code runner_async} and {@code wheel_async} lowstate clients against a real master and three real
 * minions (in this JVM, on loopback).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BatchAndAsyncClientsTest {
    private static final List<String> MINIONS = List.of("b1", "b2", "b3");
    private static final Duration WAIT = Duration.ofSeconds(30);

    private ApiCluster cluster;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void startCluster(@TempDir Path root) throws Exception {
        Path users = Files.writeString(root.resolve("users"), "admin:adminpw\npinger:pingpw\n");
        cluster = new ApiCluster(root).start(Map.of("file", Map.of(
                "^filename", users.toString(),
                "admin", List.of("test.*", "@runner", "@wheel"),
                "pinger", List.of("test.ping"))),
                List.of("local", "local_batch", "runner", "runner_async", "wheel_async"), MINIONS.toArray(String[]::new));
        String token = login("admin", "adminpw");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            HttpResponse<String> a = post("/", token, "[{\"client\":\"local\",\"tgt\":\"b*\",\"fun\":\"test.ping\",\"timeout\":2}]");
            return a.statusCode() == 200 && MINIONS.stream().allMatch(id -> a.body().contains("\"" + id + "\""));
        });
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void localBatchAnswersOneElementPerMinionAndRunsAtMostTheBatchAtATime() throws Exception {
        String token = login("admin", "adminpw");
        int before = echoJobs().size();
        HttpResponse<String> r = post("/", token,
                "[{\"client\":\"local_batch\",\"tgt\":\"b*\",\"fun\":\"test.echo\",\"arg\":[\"hi\"],\"batch\":\"67%\",\"timeout\":10}]");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        List<Object> answers = returns(r);
        assertThat(answers).hasSize(3).allSatisfy(a -> assertThat(((Map<?, ?>) a).values().stream().map(Object.class::cast).toList()).containsExactly("hi"));
        assertThat(answers.stream().map(a -> String.valueOf(((Map<?, ?>) a).keySet().iterator().next())).toList())
                .containsExactlyInAnyOrderElementsOf(MINIONS);
        // 67% of 3 is 2 at a time (Salt's int()): the first job reached two minions, the next one the third
        List<Job> jobs = echoJobs().subList(before, echoJobs().size());
        assertThat(jobs).hasSize(2);
        assertThat(jobs.get(0).minions()).hasSize(2);
        assertThat(jobs.get(1).minions()).hasSize(1);
        assertThat(jobs).allSatisfy(j -> assertThat(j.user()).isEqualTo("admin"));
    }

    @Test
    void aBatchOfOneRunsEachMinionInItsOwnJobAndBatchSizeIsReadWhenBatchIsAbsent() throws Exception {
        String token = login("admin", "adminpw");
        int before = echoJobs().size();
        HttpResponse<String> r = post("/", token,
                "[{\"client\":\"local_batch\",\"tgt\":\"b*\",\"fun\":\"test.echo\",\"arg\":[\"one\"],\"batch_size\":1}]");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(returns(r)).hasSize(3);
        assertThat(echoJobs().subList(before, echoJobs().size())).hasSize(3).allSatisfy(j -> assertThat(j.minions()).hasSize(1));
    }

    @Test
    void aMalformedBatchIs400AndAFunctionOutsideTheRightsIs401BeforeAnyBatchIsPublished() throws Exception {
        String admin = login("admin", "adminpw");
        HttpResponse<String> bad = post("/", admin, "[{\"client\":\"local_batch\",\"tgt\":\"b*\",\"fun\":\"test.echo\",\"batch\":\"lots\"}]");
        assertThat(bad.statusCode()).isEqualTo(400);
        int before = echoJobs().size();

        // pinger may ping (the batch's own first step, as in Salt) but not echo
        HttpResponse<String> denied = post("/", login("pinger", "pingpw"),
                "[{\"client\":\"local_batch\",\"tgt\":\"b*\",\"fun\":\"test.echo\",\"arg\":[\"x\"],\"batch\":1}]");
        assertThat(denied.statusCode()).isEqualTo(401);
        assertThat(echoJobs()).hasSize(before);
    }

    @Test
    void runnerAsyncAnswersTagAndJidAndTheReturnArrivesOnTheCallersOwnStream() throws Exception {
        String token = login("admin", "adminpw");
        Queue<String> seen = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = http.sendAsync(
                HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events?token=" + token)).GET().build(),
                HttpResponse.BodyHandlers.ofLines());
        stream.thenAcceptAsync(resp -> {
            try (Stream<String> body = resp.body()) {
                body.forEach(seen::add);
            } catch (RuntimeException e) {
                // closed by the test
            }
        });
        await().atMost(WAIT).until(() -> seen.contains("retry: 400"));

        HttpResponse<String> r = post("/", token, "[{\"client\":\"runner_async\",\"fun\":\"manage.present\"}]");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<?, ?> answer = (Map<?, ?>) returns(r).get(0);
        assertThat(answer.keySet().stream().map(String::valueOf).toList()).containsExactlyInAnyOrder("tag", "jid");
        assertThat(answer.get("tag")).isEqualTo("salt/run/" + answer.get("jid"));
        await().atMost(WAIT).until(() -> seen.contains("tag: salt/run/" + answer.get("jid") + "/ret"));
        stream.get().body().close();

        HttpResponse<String> denied = post("/", login("pinger", "pingpw"), "[{\"client\":\"runner_async\",\"fun\":\"manage.present\"}]");
        assertThat(denied.statusCode()).isEqualTo(401);
    }

    @Test
    void wheelAsyncAnswersTagAndJidAndTheCallsStartAndReturnArriveOnTheCallersOwnStreamOnly() throws Exception {
        String token = login("admin", "adminpw");
        String pinger = login("pinger", "pingpw");
        List<CompletableFuture<HttpResponse<Stream<String>>>> open = new java.util.ArrayList<>();
        Queue<String> seen = stream(token, open);
        Queue<String> seenByPinger = stream(pinger, open);

        HttpResponse<String> r = post("/", token, "[{\"client\":\"wheel_async\",\"fun\":\"key.list_all\"}]");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<?, ?> answer = (Map<?, ?>) returns(r).get(0);
        assertThat(answer.keySet().stream().map(String::valueOf).toList()).containsExactlyInAnyOrder("tag", "jid");
        String jid = String.valueOf(answer.get("jid"));
        assertThat(jid).matches("\\d{20}");
        assertThat(answer.get("tag")).isEqualTo("salt/wheel/" + jid);
        await().atMost(WAIT).until(() -> seen.contains("tag: salt/wheel/" + jid + "/ret"));
        assertThat(seen).contains("tag: salt/wheel/" + jid + "/new");
        String ret = seen.stream().filter(l -> l.startsWith("data: ") && l.contains("salt/wheel/" + jid + "/ret")).findFirst().orElseThrow();
        Map<?, ?> data = (Map<?, ?>) ((Map<?, ?>) new JSON().fromJSON(ret.substring(6))).get("data");
        assertThat(data.get("fun")).isEqualTo("wheel.key.list_all");
        assertThat(data.get("user")).isEqualTo("admin");
        assertThat(data.get("success")).isEqualTo(true);
        assertThat(Arrays.asList((Object[]) ((Map<?, ?>) data.get("return")).get("minions"))).containsAll(MINIONS);

        // the pinger's stream carries a later job of its own, and never the admin's wheel call
        HttpResponse<String> ping = post("/", pinger, "[{\"client\":\"local\",\"tgt\":\"b1\",\"fun\":\"test.ping\"}]");
        assertThat(ping.statusCode()).as(ping.body()).isEqualTo(200);
        await().atMost(WAIT).until(() -> seenByPinger.stream().anyMatch(l -> l.startsWith("tag: salt/job/") && l.endsWith("/ret/b1")));
        assertThat(seenByPinger).noneMatch(l -> l.contains("salt/wheel/"));

        // the master checks @wheel before anything runs: no right, no jid
        HttpResponse<String> denied = post("/", pinger, "[{\"client\":\"wheel_async\",\"fun\":\"key.list_all\"}]");
        assertThat(denied.statusCode()).isEqualTo(401);
        assertThat(denied.body()).doesNotContain("salt/wheel/");
        for (CompletableFuture<HttpResponse<Stream<String>>> stream : open) {
            stream.get().body().close();
        }
    }

    /** The lines of the user's {@code GET /events} stream, as they arrive; the stream goes to {@code open}, for closing. */
    private Queue<String> stream(String token, List<CompletableFuture<HttpResponse<Stream<String>>>> open) {
        Queue<String> seen = new ConcurrentLinkedQueue<>();
        CompletableFuture<HttpResponse<Stream<String>>> stream = http.sendAsync(
                HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/events?token=" + token)).GET().build(),
                HttpResponse.BodyHandlers.ofLines());
        open.add(stream);
        stream.thenAcceptAsync(resp -> {
                    try (Stream<String> body = resp.body()) {
                        body.forEach(seen::add);
                    } catch (RuntimeException e) {
                        // closed by the test
                    }
                });
        await().atMost(WAIT).until(() -> seen.contains("retry: 400"));
        return seen;
    }

    private List<Job> echoJobs() {
        return cluster.master().jobs().jobsBetween(null, null).stream().filter(j -> j.fun().equals("test.echo")).toList();
    }

    private static List<Object> returns(HttpResponse<String> r) {
        return Arrays.asList((Object[]) ((Map<?, ?>) new JSON().fromJSON(r.body())).get("return"));
    }

    private String login(String user, String password) throws Exception {
        HttpResponse<String> a = post("/login", null, "{\"username\":\"" + user + "\",\"password\":\"" + password + "\",\"eauth\":\"file\"}");
        assertThat(a.statusCode()).as(a.body()).isEqualTo(200);
        return a.headers().firstValue("X-Auth-Token").orElseThrow();
    }

    private HttpResponse<String> post(String path, String token, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.baseUrl() + path))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("X-Auth-Token", token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
