package io.jsalt.master.runner;

import static io.jsalt.master.runner.Parameter.optional;

import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.transport.message.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's {@code manage} runner, with Salt 3006's parameters: {@code status}, {@code up} and {@code down}
 * ping the minions of {@code tgt}/{@code tgt_type} (every accepted one by default) with {@code test.ping},
 * waiting {@code timeout} seconds (the master's {@code timeout} when not given; at most
 * {@link #MAX_TIMEOUT_SECONDS}, a larger value is clamped, since an MWorker waits meanwhile);
 * {@code present} and {@code not_present} read the connection state without sending anything, limited to
 * {@code subset} when given, as do Salt's other names for the same answer ({@code alived}, {@code allowed},
 * {@code joined}, {@code reaped}, {@code list_state} and their {@code not_} forms: Salt 3006 answers them all
 * with the connected ids under ZeroMQ). {@code versions} asks every minion for {@code test.version}. Salt's
 * {@code output}, {@code gather_job_timeout} and {@code show_ip} are accepted and have no effect (jsalt waits
 * for returns alone and does not report minion addresses).
 */
public final class ManageRunner implements RunnerModule {
    private static final Logger log = LoggerFactory.getLogger(ManageRunner.class);
    /** The longest a ping may be waited for: {@link MinionJobs#MAX_WAIT}. */
    static final int MAX_TIMEOUT_SECONDS = (int) MinionJobs.MAX_WAIT.toSeconds();
    private static final String OFFLINE = "Minion offline";
    /** Salt 3006's list_state aliases: each answers what present answers. */
    private static final List<String> PRESENT_ALIASES = List.of("list_state", "alived", "allowed", "joined", "reaped");

    private final MinionKeys keys;
    private final KeyAdmin keyAdmin;
    private final MinionJobs minions;
    private final Supplier<Set<String>> subscribedTopics;
    private final IntSupplier defaultTimeout;
    private final Supplier<Set<String>> presentElsewhere;

    /**
     * @param subscribedTopics the publish socket's topics with a subscriber now (ISO-8859-1 strings): a
     *                         minion is present when it subscribes its own topic, as for presence events
     * @param defaultTimeout   seconds to wait for pings when the caller gives no timeout (the {@code timeout} key)
     */
    public ManageRunner(MinionKeys keys, KeyAdmin keyAdmin, MinionJobs minions, Supplier<Set<String>> subscribedTopics,
                        IntSupplier defaultTimeout) {
        this(keys, keyAdmin, minions, subscribedTopics, defaultTimeout, Set::of);
    }

    /** @param presentElsewhere the minions the other masters of a cluster see present (docs/multi-master.md) */
    public ManageRunner(MinionKeys keys, KeyAdmin keyAdmin, MinionJobs minions, Supplier<Set<String>> subscribedTopics,
                        IntSupplier defaultTimeout, Supplier<Set<String>> presentElsewhere) {
        this.presentElsewhere = presentElsewhere;
        this.keys = keys;
        this.keyAdmin = keyAdmin;
        this.minions = minions;
        this.subscribedTopics = subscribedTopics;
        this.defaultTimeout = defaultTimeout;
    }

    @Override
    public List<RunnerFunction> functions() {
        Parameter output = optional("output", Type.BOOLEAN, true);
        Parameter tgt = optional("tgt", Type.TARGET, "*");
        Parameter tgtType = optional("tgt_type", Type.STRING, "glob");
        Parameter timeout = optional("timeout", Type.INTEGER, null);
        Parameter gatherJobTimeout = optional("gather_job_timeout", Type.INTEGER, null);
        Parameter showIp = optional("show_ip", Type.BOOLEAN, false);
        Parameter subset = optional("subset", Type.STRINGS, null);
        List<RunnerFunction> functions = new ArrayList<>(List.of(
                new RunnerFunction(RunnerSignature.of("manage.status", output, tgt, tgtType, timeout, gatherJobTimeout),
                        "Ping the targeted minions with test.ping and return {up: [...], down: [...]}.",
                        a -> status(a.value("tgt"), a.string("tgt_type"), a.integer("timeout"))),
                new RunnerFunction(RunnerSignature.of("manage.up", tgt, tgtType, timeout, gatherJobTimeout, showIp),
                        "Return the targeted minions that answer a test.ping.",
                        a -> status(a.value("tgt"), a.string("tgt_type"), a.integer("timeout")).get("up")),
                new RunnerFunction(RunnerSignature.of("manage.down", optional("removekeys", Type.BOOLEAN, false), tgt, tgtType,
                        timeout, gatherJobTimeout),
                        "Return the targeted minions that do not answer a test.ping; removekeys=True deletes their keys.",
                        a -> down(a.bool("removekeys"), a.value("tgt"), a.string("tgt_type"), a.integer("timeout"))),
                new RunnerFunction(RunnerSignature.of("manage.present", subset, showIp),
                        "Return the accepted minions connected to the master now (nothing is sent to them).",
                        a -> present(subset(a))),
                new RunnerFunction(RunnerSignature.of("manage.not_present", subset, showIp),
                        "Return the accepted minions not connected to the master now (nothing is sent to them).",
                        a -> notPresent(subset(a))),
                new RunnerFunction(RunnerSignature.of("manage.versions"),
                        "Ask every minion for test.version and return them under Salt's labels (Up to date, Minion "
                                + "requires update, Minion newer than master, Minion offline), with the master's version "
                                + "under Master.",
                        a -> versions())));
        for (String alias : PRESENT_ALIASES) {
            functions.add(new RunnerFunction(RunnerSignature.of("manage." + alias, subset, showIp),
                    "Salt's other name for manage.present.", a -> present(subset(a))));
            String not = alias.equals("list_state") ? "list_not_state" : "not_" + alias;
            functions.add(new RunnerFunction(RunnerSignature.of("manage." + not, subset, showIp),
                    "Salt's other name for manage.not_present.", a -> notPresent(subset(a))));
        }
        return List.copyOf(functions);
    }

    /** Salt's subset: None is every minion, a list limits the answer to those ids. */
    private static Predicate<String> subset(RunnerArgs a) {
        if (a.value("subset") == null) {
            return id -> true;
        }
        Set<String> ids = Set.copyOf(a.strings("subset"));
        return ids::contains;
    }

    /** The seconds to wait: the master's timeout when none (or not a positive one) is given, at most 300. */
    int seconds(Integer timeout) {
        int asked = timeout == null || timeout <= 0 ? defaultTimeout.getAsInt() : timeout;
        return Math.max(1, Math.min(asked, MAX_TIMEOUT_SECONDS));
    }

    /** {@code {"up": [...], "down": [...]}}, each sorted: who answered a test.ping within the timeout. */
    Map<String, List<String>> status(Object tgt, String tgtType, Integer timeout) {
        Gathered ping = minions.run("test.ping", List.of(), "root", tgtType, tgt, Duration.ofSeconds(seconds(timeout)));
        Map<String, List<String>> out = new LinkedHashMap<>();
        out.put("up", ping.returns().keySet().stream().sorted().toList());
        out.put("down", ping.silent().stream().sorted().toList());
        return out;
    }

    /** The minions that did not answer; with {@code removekeys}, their keys are deleted (with salt/key events). */
    List<String> down(boolean removeKeys, Object tgt, String tgtType, Integer timeout) {
        List<String> down = status(tgt, tgtType, timeout).get("down");
        if (removeKeys) {
            for (String id : down) {
                keyAdmin.delete(id); // ids hold no glob characters: this deletes exactly that key
            }
            log.info("manage.down removed the keys of {} down minion(s)", down.size());
        }
        return down;
    }

    /**
     * Salt's manage.versions: {@code "Master"} with this master's version, and the minions under Salt's labels
     * by how their {@code test.version} compares with it; a minion that does not answer in the master's timeout,
     * or answers no version, is {@code "Minion offline"} with False.
     */
    Map<String, Object> versions() {
        String master = MasterVersion.current();
        Gathered answers = minions.run("test.version", List.of(), "root", Duration.ofSeconds(seconds(null)));
        Map<String, Map<String, Object>> byLabel = new TreeMap<>();
        answers.returns().forEach((id, ret) -> {
            OptionalInt c = ret instanceof String v ? VersionComparison.compare(v, master) : OptionalInt.empty();
            String label = c.isEmpty() ? OFFLINE : c.getAsInt() < 0 ? "Minion requires update"
                    : c.getAsInt() == 0 ? "Up to date" : "Minion newer than master";
            byLabel.computeIfAbsent(label, k -> new TreeMap<>()).put(id, c.isEmpty() ? Boolean.FALSE : ret);
        });
        answers.silent().forEach(id -> byLabel.computeIfAbsent(OFFLINE, k -> new TreeMap<>()).put(id, false));
        Map<String, Object> out = new TreeMap<>(byLabel);
        out.put("Master", master);
        return out;
    }

    /** The accepted minions manage.present answers: the wheel's {@code minions.connected}. */
    public List<String> connected() {
        return present(id -> true);
    }

    /** Connected to this master now, or (in a cluster) seen present lately by another master. */
    List<String> present(Predicate<String> subset) {
        Predicate<String> here = presentHereOrElsewhere();
        return keys.list(KeyState.ACCEPTED).stream().filter(subset).filter(here).sorted().toList();
    }

    List<String> notPresent(Predicate<String> subset) {
        Predicate<String> here = presentHereOrElsewhere();
        return keys.list(KeyState.ACCEPTED).stream().filter(subset).filter(here.negate()).sorted().toList();
    }

    private Predicate<String> presentHereOrElsewhere() {
        Set<String> topics = subscribedTopics.get();
        Set<String> elsewhere = presentElsewhere.get();
        return id -> Topics.isSubscribedBy(topics, id) || elsewhere.contains(id);
    }
}
