package io.jsalt.bench.scenario;

import io.jsalt.bench.client.JobCacheReader;
import io.jsalt.bench.client.JobClient;
import io.jsalt.bench.harness.MasterProcess;
import io.jsalt.bench.harness.SaltProcesses;
import io.jsalt.bench.harness.TreeCpu;
import io.jsalt.bench.report.TextTable;
import io.jsalt.bench.swarm.KeyCache;
import io.jsalt.bench.swarm.ReplaySwarm;
import io.jsalt.crypto.Crypticle;
import io.jsalt.crypto.Rsa;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.AuthRequest;
import io.jsalt.transport.message.MinionSignature;
import io.jsalt.transport.message.RequestEnvelope;
import io.jsalt.transport.message.ReturnLoad;
import io.jsalt.transport.message.ReturnMac;
import io.jsalt.transport.message.SessionCipher;
import io.jsalt.transport.message.SignedClear;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Scenario "master-capacity": what a master alone takes, with no minion's work in the figure. A replay swarm
 * ({@link ReplaySwarm}) first sends N sign-ins of pre-accepted minions as fast as the master answers them, then,
 * for J jobs the master published to all N, the N × J returns, made, sealed and encrypted beforehand; each burst
 * follows an uncounted one of the same kind (the sign-ins once, the returns of five jobs), so a JVM master is
 * measured compiled, as it runs after its first minutes; the master's
 * CPU (from /proc, its whole process tree) is read around each burst and every return is looked for in its job
 * cache. Rows: a jsalt master with jsalt minions' returns (MACed), the same master with RSA-signed returns (what
 * every jsalt return cost before the MAC, and what a salt-minion with minion_sign_messages sends), and a real
 * salt-master 3006.8 with a default salt-minion's returns (unsigned), from the same swarm. "per CPU-s" is the
 * master's rate per second of its own CPU: on a loaded machine the wall-clock rate says more about the others.
 */
public final class MasterCapacity {
    private static final int CLIENTS = 32;
    /** Jobs whose returns are sent first and not counted: a fresh JVM compiles its hot paths under the first thousands. */
    private static final int WARM_UP_JOBS = 5;
    /** The two measured bursts of returns, in the order they are sent. */
    private static final List<String> BURSTS = List.of("cold", "warm");
    private static final Pattern JID = Pattern.compile("\\b[0-9]{20}\\b");

    private MasterCapacity() {
    }

    public static ScenarioResult run(BenchOptions o) throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        TextTable table = new TextTable("master", "minions", "sign-ins/s", "sign-ins per CPU-s", "burst", "returns", "stored", "returns/s",
                "returns per CPU-s", "CPU ms/return", "without JIT", "JIT CPU-s", "load before");
        TextTable byRole = new TextTable("master", "burst", "returns", "MWorkers", "router", "job cache writer", "I/O", "JIT", "GC", "other",
                "total (µs per return)");
        Path salt = SaltInstall.find(o.jsaltHome());
        for (int n : o.sizes()) {
            int jobs = o.quick() ? 5 : 20;
            rows.add(jsalt(o, n, jobs, true));
            rows.add(jsalt(o, n, Math.min(jobs, 5), false));
            if (salt != null) {
                rows.add(salt(o, salt, n, jobs));
            }
        }
        for (Map<String, Object> r : rows) {
            for (String burst : BURSTS) {
                @SuppressWarnings("unchecked")
                Map<String, Object> b = (Map<String, Object>) r.get(burst);
                table.row(r.get("master"), r.get("minions"), r.get("sign_ins_per_s"), r.get("sign_ins_per_cpu_s"), burst, b.get("returns"),
                        b.get("returns_stored"), b.get("returns_per_s"), b.get("returns_per_cpu_s"), threeDecimals(b.get("cpu_ms_per_return")),
                        threeDecimals(b.get("cpu_ms_per_return_without_jit")), b.getOrDefault("returns_jit_cpu_s", "-"), r.get("loadavg_before"));
                if (b.get("returns_cpu_us_per_return_by_role") instanceof Map<?, ?> roles) {
                    List<Object> cells = new ArrayList<>(List.of(r.get("master"), burst, b.get("returns")));
                    cells.addAll(roles.values());
                    byRole.row(cells.toArray());
                }
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scenario", "master-capacity");
        json.put("clients", CLIENTS);
        json.put("results", rows);
        return new ScenarioResult("master-capacity", json, table.render() + "\n" + byRole.render());
    }

    private static Map<String, Object> jsalt(BenchOptions o, int n, int jobs, boolean macs) throws Exception {
        Path root = o.runDir("capacity-" + n);
        KeyCache keys = new KeyCache(o.cacheDir());
        keys.ensure(n, 2);
        List<String> ids = KeyCache.ids(0, n);
        try (MasterProcess master = new MasterProcess(root, o.masterJvm(), List.of("worker_threads: " + o.workerThreads()))) {
            keys.preAccept(master.pkiDir(), ids);
            master.start();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("master", macs ? "jsalt, MACed returns" : "jsalt, RSA-signed returns");
            r.put("minions", n);
            r.put("loadavg_before", LoadAverage.now());
            List<KeyPair> pairs = new ArrayList<>();
            for (String id : ids) {
                pairs.add(RsaKeys.readKeyPair(keys.privateKey(id)));
            }
            signIns(new LinkedHashMap<>(), master.pid(), master.retPort(), ids, pairs, macs); // warm-up: a JVM compiles as it goes
            List<Map<String, Object>> replies = signIns(r, master.pid(), master.retPort(), ids, pairs, macs);
            Crypticle session = new Crypticle(new String(Rsa.oaepDecrypt(pairs.get(0).getPrivate(), Wire.bytes(replies.get(0), "aes")),
                    StandardCharsets.US_ASCII));
            List<ReturnMac> secrets = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                secrets.add(macs ? ReturnMac.fromSignInReply(replies.get(i), pairs.get(i).getPrivate()).orElseThrow() : null);
            }
            List<String> jids = new ArrayList<>();
            List<String> warmUpJids = new ArrayList<>();
            try (JobClient client = new JobClient(master.config())) {
                for (int j = 0; j < WARM_UP_JOBS; j++) {
                    warmUpJids.add(client.publish("*", "test.ping", List.of()).jid());
                }
                for (int j = 0; j < 2 * jobs; j++) {
                    jids.add(client.publish("*", "test.ping", List.of()).jid());
                }
            }
            SessionCipher cipher = new SessionCipher(session);
            List<byte[]> warmUp = new ArrayList<>();
            for (String jid : warmUpJids) {
                for (int i = 0; i < n; i++) {
                    Map<String, Object> load = new ReturnLoad(ids.get(i), jid, "test.ping", List.of(), true, 0, true).toLoad();
                    warmUp.add(cipher.encryptRequest(macs ? secrets.get(i).seal(load) : MinionSignature.sign(load, pairs.get(i).getPrivate()),
                            SessionCipher.newNonce()));
                }
            }
            ReplaySwarm.send("127.0.0.1", master.retPort(), warmUp, CLIENTS, Duration.ofSeconds(120));
            // two measured bursts of the same size, one right after the other: the first while the JIT may still
            // compile ("cold"), the second as a master runs after its first minutes ("warm")
            for (String burst : BURSTS) {
                List<String> burstJids = burst.equals("cold") ? jids.subList(0, jobs) : jids.subList(jobs, 2 * jobs);
                List<byte[]> frames = new ArrayList<>();
                List<String> nonces = new ArrayList<>();
                for (String jid : burstJids) {
                    for (int i = 0; i < n; i++) {
                        Map<String, Object> load = new ReturnLoad(ids.get(i), jid, "test.ping", List.of(), true, 0, true).toLoad();
                        Map<String, Object> sealed = macs ? secrets.get(i).seal(load) : MinionSignature.sign(load, pairs.get(i).getPrivate());
                        String nonce = SessionCipher.newNonce();
                        nonces.add(nonce);
                        frames.add(cipher.encryptRequest(sealed, nonce));
                    }
                }
                long cpu0 = requestPathMillis(master.pid());
                Map<String, Long> threads0 = TreeCpu.perThreadName(master.pid());
                ReplaySwarm.Outcome out = ReplaySwarm.send("127.0.0.1", master.retPort(), frames, CLIENTS, Duration.ofSeconds(120));
                long cpu = requestPathMillis(master.pid()) - cpu0;
                Map<String, Long> byThread = TreeCpu.used(threads0, TreeCpu.perThreadName(master.pid()));
                Map<String, Object> b = new LinkedHashMap<>();
                b.put("returns_cpu_ms_by_thread", byThread);
                // by role, the threads of the request path alone, as the burst's figure counts them (the JSON above keeps all)
                Map<String, Long> requestPath = new LinkedHashMap<>(byThread);
                requestPath.keySet().removeAll(NOT_REQUEST_PATH);
                b.put("returns_cpu_us_per_return_by_role", MasterThreads.perReturnMicros(requestPath, frames.size()));
                // the JIT still compiles under the first tens of thousands of returns; a master up for hours does not
                long jit = MasterThreads.jitMillis(byThread);
                b.put("returns_jit_cpu_s", jit / 1000.0);
                b.put("cpu_ms_per_return_without_jit", round3((double) (cpu - jit) / frames.size()));
                int accepted = 0;
                for (int i = 0; i < frames.size(); i++) {
                    byte[] a = out.answers().get(i);
                    if (a != null && Boolean.TRUE.equals(cipher.decryptReply(a, nonces.get(i)))) {
                        accepted++;
                    }
                }
                returnFigures(b, frames.size(), accepted, storedIn(master.cachedir(), burstJids), out, cpu);
                r.put(burst, b);
            }
            return r;
        }
    }

    private static Map<String, Object> salt(BenchOptions o, Path salt, int n, int jobs) throws Exception {
        Path root = o.runDir("capacity-salt-" + n);
        KeyCache keys = new KeyCache(o.cacheDir());
        List<String> ids = KeyCache.ids(0, n);
        try (SaltProcesses saltSide = new SaltProcesses(salt, root)) {
            keys.preAccept(saltSide.masterPkiDir(), ids);
            saltSide.startMaster();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("master", "salt-master 3006.8, unsigned returns");
            r.put("minions", n);
            r.put("loadavg_before", LoadAverage.now());
            List<KeyPair> pairs = new ArrayList<>();
            for (String id : ids) {
                pairs.add(RsaKeys.readKeyPair(keys.privateKey(id)));
            }
            signIns(new LinkedHashMap<>(), saltSide.masterPid(), saltSide.retPort(), ids, pairs, false); // as for jsalt's master
            List<Map<String, Object>> replies = signIns(r, saltSide.masterPid(), saltSide.retPort(), ids, pairs, false);
            Crypticle session = new Crypticle(new String(Rsa.oaepDecrypt(pairs.get(0).getPrivate(), Wire.bytes(replies.get(0), "aes")),
                    StandardCharsets.US_ASCII));
            List<String> jids = new ArrayList<>();
            for (int j = 0; j < 2 * jobs; j++) {
                jids.add(saltPublish(saltSide, root.resolve("publish-" + j + ".out")));
            }
            SessionCipher cipher = new SessionCipher(session);
            int storedBefore = 0;
            for (String burst : BURSTS) {
                List<String> burstJids = burst.equals("cold") ? jids.subList(0, jobs) : jids.subList(jobs, 2 * jobs);
                List<byte[]> frames = new ArrayList<>();
                for (String jid : burstJids) {
                    for (String id : ids) {
                        Map<String, Object> load = new ReturnLoad(id, jid, "test.ping", List.of(), true, 0, true).toLoad();
                        frames.add(cipher.encryptRequest(load, SessionCipher.newNonce()));
                    }
                }
                long cpu0 = TreeCpu.millis(saltSide.masterPid());
                ReplaySwarm.Outcome out = ReplaySwarm.send("127.0.0.1", saltSide.retPort(), frames, CLIENTS, Duration.ofSeconds(120));
                long cpu = TreeCpu.millis(saltSide.masterPid()) - cpu0;
                int answered = (int) out.answers().stream().filter(a -> a != null).count();
                int stored = saltStored(saltSide.masterCachedir());
                Map<String, Object> b = new LinkedHashMap<>();
                returnFigures(b, frames.size(), answered, stored - storedBefore, out, cpu);
                storedBefore = stored;
                r.put(burst, b);
            }
            return r;
        }
    }

    /** Sends N sign-ins made beforehand (jsalt minions ask for a return secret) and keeps each accepted reply's load. */
    private static List<Map<String, Object>> signIns(Map<String, Object> r, long masterPid, int port, List<String> ids, List<KeyPair> pairs,
            boolean askForSecret) throws IOException {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            Map<String, Object> load = new AuthRequest(ids.get(i), SessionCipher.newNonce(), RsaKeys.publicKeyPem(pairs.get(i).getPublic()), null)
                    .toLoad();
            if (askForSecret) {
                load.put(ReturnMac.ASK, ReturnMac.ALGORITHM);
            }
            frames.add(RequestEnvelope.clear(load).encode());
        }
        long cpu0 = TreeCpu.millis(masterPid);
        ReplaySwarm.Outcome out = ReplaySwarm.send("127.0.0.1", port, frames, CLIENTS, Duration.ofSeconds(120));
        long cpu = TreeCpu.millis(masterPid) - cpu0;
        List<Map<String, Object>> replies = new ArrayList<>();
        for (byte[] a : out.answers()) {
            Map<String, Object> load = a == null ? Map.of() : SignedClear.peek(a);
            if (!"pub".equals(load.get("enc"))) {
                throw new IOException("a sign-in was not accepted: " + load.keySet());
            }
            replies.add(load);
        }
        r.put("sign_ins", ids.size());
        r.put("sign_ins_wall_s", round(out.wallSeconds()));
        r.put("sign_ins_per_s", Math.round(ids.size() / out.wallSeconds()));
        r.put("sign_ins_master_cpu_s", cpu / 1000.0);
        r.put("sign_ins_per_cpu_s", Math.round(ids.size() / Math.max(0.01, cpu / 1000.0)));
        return replies;
    }

    /**
     * The jsalt master's CPU but for its late sign-in handler and its publisher: the swarm's minions sign in
     * without subscribing, so the master publishes the jobs in flight to them again (LateSignIns), work a real
     * fleet that subscribes does not cause and that is not the request path measured here.
     */
    private static long requestPathMillis(long pid) {
        return TreeCpu.millis(pid) - TreeCpu.threadMillis(pid, NOT_REQUEST_PATH);
    }

    private static final List<String> NOT_REQUEST_PATH = List.of("late-sign-ins", "jsalt-publisher");

    private static void returnFigures(Map<String, Object> r, int sent, int accepted, int stored, ReplaySwarm.Outcome out, long cpuMs) {
        r.put("returns", sent);
        r.put("returns_accepted", accepted);
        r.put("returns_stored", stored);
        r.put("returns_unanswered", out.failed());
        r.put("returns_wall_s", round(out.wallSeconds()));
        r.put("returns_per_s", Math.round(sent / out.wallSeconds()));
        r.put("returns_master_cpu_s", cpuMs / 1000.0);
        r.put("returns_per_cpu_s", Math.round(sent / Math.max(0.01, cpuMs / 1000.0)));
        r.put("cpu_ms_per_return", round3((double) cpuMs / sent));
    }

    private static int storedIn(Path cachedir, List<String> jids) throws SQLException {
        Map<String, Integer> perJob = new JobCacheReader(cachedir).returnsPerJob("");
        return jids.stream().mapToInt(j -> perJob.getOrDefault(j, 0)).sum();
    }

    /** Returns in Salt's local job cache: one {@code return.p} per (jid, minion). */
    private static int saltStored(Path cachedir) throws IOException {
        Path jobs = cachedir.resolve("jobs");
        if (!Files.isDirectory(jobs)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(jobs)) {
            return (int) files.filter(p -> p.getFileName().toString().equals("return.p")).count();
        }
    }

    private static String saltPublish(SaltProcesses salt, Path out) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(salt.saltCommand("--async", "*", "test.ping")).redirectErrorStream(true).redirectOutput(out.toFile())
                .start();
        if (!p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("salt --async did not end; see " + out);
        }
        Matcher m = JID.matcher(Files.readString(out));
        if (!m.find()) {
            throw new IOException("salt --async printed no jid; see " + out);
        }
        return m.group();
    }

    private static String threeDecimals(Object v) {
        return v instanceof Double d ? String.format(java.util.Locale.ROOT, "%.3f", d) : "-";
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
