package io.jsalt.cli.key;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ConfigLoader;
import io.jsalt.cli.ExitCode;
import io.jsalt.cli.Logging;
import io.jsalt.cli.MasterConnection;
import io.jsalt.cli.ToolRunner;
import io.jsalt.cli.VersionsReportOption;
import io.jsalt.cli.output.Json;
import io.jsalt.config.MasterConfig;
import io.jsalt.crypto.Fingerprint;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.cluster.ClusterException;
import io.jsalt.master.cluster.ClusterState;
import io.jsalt.master.events.EventBus;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.keys.MinionKeys;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jsalt-key}: list, accept, reject, delete and fingerprint minion keys, with salt-key's flags.
 * Changes go through the running master (which rotates the session key and fires {@code salt/key});
 * with no master running they are made on the key store directly.
 */
@Command(name = "jsalt-key", mixinStandardHelpOptions = true, version = "jsalt-key 0.1.0",
        description = "Manage minion keys on the master.")
public final class KeyCommand implements Callable<ExitCode> {

    static final class Action {
        @Option(names = {"-L", "--list-all"}, description = "List every key.") boolean listAll;
        @Option(names = {"-l", "--list"}, paramLabel = "STATE", description = "List keys in one state: acc, pre (un), rej, den, all.") String listState;
        @Option(names = {"-a", "--accept"}, paramLabel = "ID", description = "Accept a pending key (id or glob).") String accept;
        @Option(names = {"-A", "--accept-all"}, description = "Accept every pending key.") boolean acceptAll;
        @Option(names = {"-r", "--reject"}, paramLabel = "ID", description = "Reject a pending key (id or glob).") String reject;
        @Option(names = {"-R", "--reject-all"}, description = "Reject every pending key.") boolean rejectAll;
        @Option(names = {"-d", "--delete"}, paramLabel = "ID", description = "Delete a key in any state (id or glob).") String delete;
        @Option(names = {"-D", "--delete-all"}, description = "Delete every key.") boolean deleteAll;
        @Option(names = {"-f", "--finger"}, paramLabel = "ID", description = "Print the fingerprint of a key (id or glob).") String finger;
        @Option(names = {"-F", "--finger-all"}, description = "Print every fingerprint, the master's first.") boolean fingerAll;
        @Option(names = "--gen-keys", paramLabel = "NAME", description = "Write a key pair NAME.pem and NAME.pub (e.g. for a "
                + "minion's pki_dir) and print its fingerprint; an existing NAME.pem is kept. Needs no master.") String genKeys;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Action action = new Action();

    @Option(names = {"-c", "--config-dir"}, defaultValue = ConfigLoader.DEFAULT_DIR, description = "Folder holding the 'master' config file.")
    Path configDir;

    @Option(names = {"-y", "--yes"}, description = "Answer yes to every question.")
    boolean yes;

    @Option(names = "--include-rejected", description = "Accept also rejected keys.")
    boolean includeRejected;

    @Option(names = "--include-accepted", description = "Reject also accepted keys.")
    boolean includeAccepted;

    @Option(names = "--include-denied", description = "Accept or reject also denied keys.")
    boolean includeDenied;

    @Option(names = "--out", description = "Output: text (default) or json.", defaultValue = "text")
    String out;

    @Option(names = "--gen-keys-dir", paramLabel = "DIR", description = "With --gen-keys: the folder to write to (default: "
            + "the current folder; made 0700 when missing).")
    Path genKeysDir;

    @Option(names = "--keysize", paramLabel = "BITS", description = "With --gen-keys: the key's size, 2048 (default) to 32768.")
    Integer keysize;

    @Mixin
    VersionsReportOption versionsReport = new VersionsReportOption();

    private final PrintStream stdout;
    private final BufferedReader stdin;

    public KeyCommand(PrintStream stdout, java.io.InputStream stdin) {
        this.stdout = stdout;
        this.stdin = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
    }

    public static void main(String[] argv) {
        Logging.forCli();
        System.exit(ToolRunner.run(new KeyCommand(System.out, System.in), System.err, argv));
    }

    /** Set when the keys are a cluster's (cluster_id) and were opened here. */
    private ClusterState.KeyTool cluster;

    @Override
    public ExitCode call() throws IOException {
        if (versionsReport.printIfRequested(stdout)) {
            return ExitCode.OK;
        }
        if (!"text".equals(out) && !"json".equals(out)) {
            throw new CliException(ExitCode.USAGE, "--out must be text or json");
        }
        if (action.genKeys != null) {
            return genKeys();
        }
        if (genKeysDir != null || keysize != null) {
            throw new CliException(ExitCode.USAGE, (genKeysDir != null ? "--gen-keys-dir" : "--keysize") + " goes with --gen-keys");
        }
        MasterConfig config = ConfigLoader.master(configDir);
        MinionKeys store = keyStore(config);
        try {
            return act(config, store);
        } finally {
            if (cluster != null) {
                cluster.db().close();
            }
        }
    }

    private ExitCode act(MasterConfig config, MinionKeys store) throws IOException {
        Action a = action;
        if (a.accept != null || a.acceptAll) {
            return change("key.accept", a.acceptAll ? "*" : a.accept, config, store, KeyState.PENDING, "Accept");
        }
        if (a.reject != null || a.rejectAll) {
            return change("key.reject", a.rejectAll ? "*" : a.reject, config, store, KeyState.PENDING, "Reject");
        }
        if (a.delete != null || a.deleteAll) {
            return change("key.delete", a.deleteAll ? "*" : a.delete, config, store, null, "Delete");
        }
        if (a.finger != null || a.fingerAll) {
            return fingerprints(config, store, a.fingerAll ? "*" : a.finger);
        }
        KeyState only = null;
        if (a.listState != null && !"all".equals(a.listState)) {
            only = KeyState.parse(a.listState).orElseThrow(() ->
                    new CliException(ExitCode.USAGE, "unknown key state '" + a.listState + "' (acc, pre, rej, den, all)"));
        }
        printKeys(store.listAll(), only);
        return ExitCode.OK;
    }

    private ExitCode change(String fun, String match, MasterConfig config, MinionKeys store, KeyState usualState, String verb) throws IOException {
        Map<KeyState, List<String>> candidates = new LinkedHashMap<>();
        KeyAdmin preview = new KeyAdmin(store, new EventBus(), () -> {});
        Map<String, Object> prints = preview.finger(match);
        for (KeyState s : KeyState.values()) {
            Object ids = prints.get(s.folder());
            if (ids instanceof Map<?, ?> m && !m.isEmpty() && included(s, usualState, fun)) {
                candidates.put(s, m.keySet().stream().map(String::valueOf).toList());
            }
        }
        if (candidates.isEmpty()) {
            String which = usualState == null ? "" : (usualState == KeyState.PENDING ? "unaccepted" : usualState.label()) + " ";
            stdout.println("The key glob '" + match + "' does not match any " + which + "keys.");
            return ExitCode.OK;
        }
        stdout.println("The following keys are going to be " + verb.toLowerCase() + (verb.endsWith("e") ? "d" : "ed") + ":");
        printKeys(candidates, null);
        // salt-key's defaults: Enter accepts or rejects, but deleting needs an explicit yes
        if (!yes && !confirm(!"key.delete".equals(fun))) {
            stdout.println("Nothing was changed.");
            return ExitCode.OK;
        }
        List<?> done = MasterConnection.isListening(config) ? changed(fun, candidates, viaMaster(config, fun, match))
                : viaStore(store, fun, match);
        for (Object id : done) {
            stdout.println("Key for minion " + id + " " + verb.toLowerCase() + (verb.endsWith("e") ? "d" : "ed") + ".");
        }
        return ExitCode.OK;
    }

    private boolean included(KeyState s, KeyState usual, String fun) {
        if (usual == null || s == usual) {
            return true;
        }
        return switch (fun) {
            case "key.accept" -> (s == KeyState.REJECTED && includeRejected) || (s == KeyState.DENIED && includeDenied);
            case "key.reject" -> (s == KeyState.ACCEPTED && includeAccepted) || (s == KeyState.DENIED && includeDenied);
            default -> false;
        };
    }

    /**
     * The candidates the master moved, read from Salt's answer (where the matching keys are afterwards): for
     * accept and reject, those now in the folder of that state; for delete, those no longer anywhere.
     */
    static List<String> changed(String fun, Map<KeyState, List<String>> candidates, Map<?, ?> afterwards) {
        List<String> all = candidates.values().stream().flatMap(List::stream).toList();
        if (fun.equals("key.delete")) {
            return all.stream().filter(id -> afterwards.values().stream()
                    .noneMatch(ids -> ids instanceof List<?> l && l.contains(id))).toList();
        }
        KeyState target = fun.equals("key.accept") ? KeyState.ACCEPTED : KeyState.REJECTED;
        Object now = afterwards.get(target.folder());
        return all.stream().filter(id -> candidates.get(target) == null || !candidates.get(target).contains(id))
                .filter(id -> now instanceof List<?> l && l.contains(id)).toList();
    }

    private Map<?, ?> viaMaster(MasterConfig config, String fun, String match) {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("cmd", "wheel");
        load.put("fun", fun);
        load.put("match", match);
        // only the flags the function takes: the master refuses an argument its function does not have, as Salt's wheel
        if (fun.equals("key.accept")) {
            load.put("include_rejected", includeRejected);
            load.put("include_denied", includeDenied);
        } else if (fun.equals("key.reject")) {
            load.put("include_accepted", includeAccepted);
            load.put("include_denied", includeDenied);
        }
        try (MasterConnection master = MasterConnection.open(config)) {
            // Salt's wheel answer: {"tag", "data": {"return", "success", ...}}; a failure is success False
            Object data = master.call(load, Duration.ofSeconds(10)).get("data");
            Map<?, ?> answer = data instanceof Map<?, ?> m ? m : Map.of();
            if (!Boolean.TRUE.equals(answer.get("success"))) {
                throw new CliException(ExitCode.SOFTWARE, "the master could not " + fun + ": " + answer.get("return"));
            }
            return answer.get("return") instanceof Map<?, ?> m ? m : Map.of();
        }
    }

    /**
     * The master is down: change the files, as its next start makes a new session key anyway; or, for a master
     * of a cluster, change the cluster's table and do what a master does on a revoked key, since the other
     * masters keep serving: a new session key for all, and the minion's shared grains forgotten.
     */
    private List<?> viaStore(MinionKeys store, String fun, String match) {
        ClusterState.KeyTool c = cluster;
        KeyAdmin admin = c == null ? new KeyAdmin(store, new EventBus(), () -> {})
                : new KeyAdmin(store, new EventBus(), () -> c.rotateSessionKey("a minion key was deleted or rejected with jsalt-key"),
                        c::forget);
        return switch (fun) {
            case "key.accept" -> admin.accept(match, includeRejected, includeDenied);
            case "key.reject" -> admin.reject(match, includeAccepted, includeDenied);
            default -> admin.delete(match);
        };
    }

    /**
     * The master's keys: its pki folder, or for a master of a cluster ({@code cluster_id}) the cluster's table,
     * which needs the master key (accepted keys are signed with it) and the database.
     */
    private MinionKeys keyStore(MasterConfig config) {
        if (!ClusterState.configured(config)) {
            return new KeyStore(config.pkiDir());
        }
        Path pem = config.pkiDir().resolve("master.pem");
        if (!Files.isRegularFile(pem)) {
            throw new CliException(ExitCode.USAGE, "cluster_id is set: the cluster's keys need the master key " + pem);
        }
        try {
            cluster = ClusterState.keyToolFor(config, RsaKeys.readKeyPair(pem)).orElseThrow();
            return cluster.keys();
        } catch (ClusterException | IllegalArgumentException e) {
            throw new CliException(ExitCode.UNAVAILABLE, e.getMessage());
        }
    }

    private boolean confirm(boolean yesByDefault) throws IOException {
        stdout.print(yesByDefault ? "Proceed? [n/Y] " : "Proceed? [N/y] ");
        stdout.flush();
        String answer = stdin.readLine();
        if (answer == null) {
            return false;
        }
        return answer.isBlank() ? yesByDefault : answer.trim().toLowerCase().startsWith("y");
    }

    private void printKeys(Map<KeyState, List<String>> keys, KeyState only) {
        if ("json".equals(out)) {
            Map<String, Object> m = new LinkedHashMap<>();
            keys.forEach((s, ids) -> {
                if (only == null || s == only) {
                    m.put(s.folder(), ids);
                }
            });
            stdout.println(Json.write(m, 4));
            return;
        }
        // salt-key's order and headings
        for (KeyState s : List.of(KeyState.ACCEPTED, KeyState.DENIED, KeyState.PENDING, KeyState.REJECTED)) {
            if ((only == null || s == only) && keys.containsKey(s)) {
                stdout.println(heading(s) + ":");
                keys.get(s).forEach(stdout::println);
            }
        }
    }

    private ExitCode fingerprints(MasterConfig config, MinionKeys store, String match) throws IOException {
        Map<String, Object> prints = new KeyAdmin(store, new EventBus(), () -> {}).finger(match);
        Map<String, Object> local = new LinkedHashMap<>();
        for (String f : List.of("master.pem", "master.pub")) {
            Path p = config.pkiDir().resolve(f);
            if ("*".equals(match) && Files.isRegularFile(p)) {
                local.put(f, Fingerprint.sha256(Files.readString(p, StandardCharsets.US_ASCII)));
            }
        }
        if ("json".equals(out)) {
            Map<String, Object> m = new LinkedHashMap<>();
            if (!local.isEmpty()) {
                m.put("local", local);
            }
            m.putAll(prints);
            stdout.println(Json.write(m, 4));
            return ExitCode.OK;
        }
        if (!local.isEmpty()) {
            stdout.println("Local Keys:");
            local.forEach((k, v) -> stdout.println(k + ":  " + v));
        }
        for (KeyState s : List.of(KeyState.ACCEPTED, KeyState.DENIED, KeyState.PENDING, KeyState.REJECTED)) {
            if (prints.get(s.folder()) instanceof Map<?, ?> m && !m.isEmpty()) {
                stdout.println(heading(s) + ":");
                m.forEach((k, v) -> stdout.println(k + ":  " + v));
            }
        }
        return ExitCode.OK;
    }

    /** salt-key prints the fingerprint as {@code {"return": fingerprint}} through its key outputter. */
    private ExitCode genKeys() {
        Path dir = genKeysDir == null ? Path.of(".") : genKeysDir;
        String fingerprint = KeyGeneration.generate(dir, action.genKeys, keysize == null ? KeyGeneration.MIN_BITS : keysize);
        if ("json".equals(out)) {
            stdout.println(Json.write(Map.of("return", fingerprint), 4));
        } else {
            stdout.println("return:");
            stdout.println("    " + fingerprint);
        }
        return ExitCode.OK;
    }

    private static String heading(KeyState s) {
        return switch (s) {
            case ACCEPTED -> "Accepted Keys";
            case DENIED -> "Denied Keys";
            case PENDING -> "Unaccepted Keys";
            case REJECTED -> "Rejected Keys";
        };
    }
}
