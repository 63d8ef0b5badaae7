package io.jsalt.master.wheel;

import static io.jsalt.master.runner.Parameter.optional;
import static io.jsalt.master.runner.Parameter.required;

import io.jsalt.crypto.Fingerprint;
import io.jsalt.crypto.RsaKeys;
import io.jsalt.master.keys.KeyAdmin;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.MinionKeys;
import io.jsalt.master.runner.Parameter.Type;
import io.jsalt.master.runner.RunnerException;
import io.jsalt.master.runner.RunnerFunction;
import io.jsalt.master.runner.RunnerModule;
import io.jsalt.master.runner.RunnerSignature;
import io.jsalt.transport.target.Glob;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Salt's wheel module {@code key} (salt/wheel/key.py of 3006.8) over the master's key store: the functions,
 * their arguments and their answers as Salt's. The master's own key files ({@code *.pem}, {@code *.pub} in
 * {@code pki_dir}) show under {@code local} where Salt shows them. Not offered: {@code key.gen_keys} and
 * {@code key.gen_signature}, which write key files to any folder of the master the caller names, and the
 * {@code *_dict} variants.
 */
public final class KeyWheel implements RunnerModule {
    private static final String LOCAL = "local";
    private static final String MASTER_PUB = "master.pub";
    private static final int MIN_BITS = 2048;
    private static final int MAX_BITS = 8192;

    private final KeyAdmin admin;
    private final MinionKeys keys;

    public KeyWheel(KeyAdmin admin, MinionKeys keys) {
        this.admin = admin;
        this.keys = keys;
    }

    @Override
    public List<RunnerFunction> functions() {
        var match = required("match", Type.STRING);
        var hashType = optional("hash_type", Type.STRING, null);
        return List.of(
                new RunnerFunction(RunnerSignature.of("key.list", match),
                        "Return the keys of one status: acc, pre (or un), rej, den, or all.", a -> list(a.string("match"))),
                new RunnerFunction(RunnerSignature.of("key.list_all"), "Return every key by status, the master's own under local.",
                        a -> listAll()),
                new RunnerFunction(RunnerSignature.of("key.name_match", match),
                        "Return the keys whose id matches the glob (or comma-separated globs), by status.",
                        a -> nameMatch(a.string("match"), false)),
                new RunnerFunction(RunnerSignature.of("key.accept", match, optional("include_rejected", Type.BOOLEAN, false),
                        optional("include_denied", Type.BOOLEAN, false)), "Accept the matching pending keys; return where the matching keys are then.",
                        a -> {
                            admin.accept(a.string("match"), a.bool("include_rejected"), a.bool("include_denied"));
                            return afterwards(a.string("match"));
                        }),
                new RunnerFunction(RunnerSignature.of("key.reject", match, optional("include_accepted", Type.BOOLEAN, false),
                        optional("include_denied", Type.BOOLEAN, false)), "Reject the matching pending keys; return where the matching keys are then.",
                        a -> {
                            admin.reject(a.string("match"), a.bool("include_accepted"), a.bool("include_denied"));
                            return afterwards(a.string("match"));
                        }),
                new RunnerFunction(RunnerSignature.of("key.delete", match), "Delete the matching keys; return what still matches.",
                        a -> {
                            admin.delete(a.string("match"));
                            return afterwards(a.string("match"));
                        }),
                new RunnerFunction(RunnerSignature.of("key.finger", match, hashType),
                        "Return the fingerprints of the matching keys, by status.",
                        a -> finger(a.string("match"), a.string("hash_type"))),
                new RunnerFunction(RunnerSignature.of("key.finger_master", hashType),
                        "Return the fingerprint of the master's public key.", a -> fingerMaster(a.string("hash_type"))),
                new RunnerFunction(RunnerSignature.of("key.print", match), "Return the matching public keys, by status.",
                        a -> print(a.string("match"))),
                new RunnerFunction(RunnerSignature.of("key.master_key_str"), "Return the master's public key.",
                        a -> Map.of(LOCAL, Map.of(MASTER_PUB, localFile(MASTER_PUB)))),
                new RunnerFunction(RunnerSignature.of("key.gen", optional("id_", Type.STRING, null),
                        optional("keysize", Type.INTEGER, MIN_BITS)),
                        "Return a new key pair {pub, priv}; nothing is kept on the master.", a -> gen(a.integer("keysize"))),
                new RunnerFunction(RunnerSignature.of("key.gen_accept", required("id_", Type.STRING),
                        optional("keysize", Type.INTEGER, MIN_BITS), optional("force", Type.BOOLEAN, false)),
                        "Return a new key pair {pub, priv} whose public half is accepted for id_; {} if id_ is already "
                                + "accepted and not force.",
                        a -> admin.genAccept(a.string("id_"), bits(a.integer("keysize")), a.bool("force"))));
    }

    /**
     * Salt's answer to accept, reject and delete: where the keys matching the glob are once the change is made
     * ({@code name_match}), not the ids changed (the master logs and fires those).
     */
    private Map<String, List<String>> afterwards(String match) {
        return nameMatch(match, false);
    }

    /** Salt's list_status: the status named by the word's start; {@code all} is list_all; others, nothing. */
    Map<String, Object> list(String match) {
        if (match.startsWith("all")) {
            return listAll();
        }
        KeyState state = match.startsWith("acc") ? KeyState.ACCEPTED
                : match.startsWith("pre") || match.startsWith("un") ? KeyState.PENDING
                : match.startsWith("rej") ? KeyState.REJECTED
                : match.startsWith("den") ? KeyState.DENIED : null;
        Map<String, Object> out = new LinkedHashMap<>();
        if (state != null) {
            out.put(state.folder(), sorted(keys.list(state)));
        }
        return out;
    }

    Map<String, Object> listAll() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (KeyState state : KeyState.values()) {
            out.put(state.folder(), sorted(keys.list(state)));
        }
        out.put(LOCAL, localKeys());
        return out;
    }

    /** Salt's name_match: only the statuses with a match appear; {@code full} adds the master's own keys. */
    Map<String, List<String>> nameMatch(String match, boolean full) {
        List<Pattern> globs = Stream.of(match.contains(",") ? match.split(",") : new String[] {match}).map(Glob::compile).toList();
        Map<String, List<String>> out = new LinkedHashMap<>();
        Map<String, List<String>> all = new LinkedHashMap<>();
        for (KeyState state : KeyState.values()) {
            all.put(state.folder(), sorted(keys.list(state)));
        }
        if (full) {
            all.put(LOCAL, localKeys());
        }
        all.forEach((status, ids) -> {
            for (String id : ids) {
                for (Pattern glob : globs) {
                    if (glob.matcher(id).matches()) {
                        out.computeIfAbsent(status, s -> new ArrayList<>()).add(id);
                    }
                }
            }
        });
        return out;
    }

    Map<String, Object> finger(String match, String hashType) {
        Function<String, String> hash = hash(hashType);
        return byStatus(nameMatch(match, true), pem -> hash.apply(pem));
    }

    Map<String, Object> fingerMaster(String hashType) {
        return Map.of(LOCAL, Map.of(MASTER_PUB, hash(hashType).apply(localFile(MASTER_PUB))));
    }

    Map<String, Object> print(String match) {
        return byStatus(nameMatch(match, false), pem -> pem);
    }

    private Map<String, Object> byStatus(Map<String, List<String>> matched, Function<String, String> show) {
        Map<String, Object> out = new LinkedHashMap<>();
        matched.forEach((status, ids) -> {
            Map<String, Object> shown = new LinkedHashMap<>();
            for (String id : ids) {
                String pem = status.equals(LOCAL) ? localFile(id)
                        : KeyState.parse(status).flatMap(s -> keys.pem(s, id)).orElse(null);
                if (pem != null) {
                    shown.put(id, show.apply(pem));
                }
            }
            out.put(status, shown);
        });
        return out;
    }

    private static Function<String, String> hash(String hashType) {
        if (hashType == null || hashType.equals("sha256")) {
            return Fingerprint::sha256;
        }
        if (hashType.equals("md5")) {
            return Fingerprint::md5;
        }
        throw new RunnerException("hash_type must be sha256 or md5, not " + hashType);
    }

    private static Map<String, Object> gen(Integer keysize) {
        KeyPair pair = RsaKeys.generate(bits(keysize));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("priv", RsaKeys.privateKeyPem(pair.getPrivate()));
        out.put("pub", RsaKeys.publicKeyPem(pair.getPublic()));
        return out;
    }

    /** Salt rounds a size under 2048 up to 2048; above 8192 a key costs minutes of the master's CPU: refused. */
    private static int bits(Integer keysize) {
        int bits = keysize == null ? MIN_BITS : Math.max(MIN_BITS, keysize);
        if (bits > MAX_BITS) {
            throw new RunnerException("keysize must be at most " + MAX_BITS + " bits");
        }
        return bits;
    }

    /** Salt's local_keys: the {@code .pem} and {@code .pub} files directly in pki_dir. */
    private List<String> localKeys() {
        try (Stream<Path> files = Files.list(keys.pkiDir())) {
            return sorted(files.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".pem") || n.endsWith(".pub")).toList());
        } catch (IOException e) {
            return List.of();
        }
    }

    /** One of the master's own key files; the name comes from {@link #localKeys} or is a constant, never from the caller. */
    private String localFile(String name) {
        try {
            return Files.readString(keys.pkiDir().resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new RunnerException("cannot read the master's " + name + ": " + e.getMessage());
        }
    }

    /** Salt's sorted_ignorecase. */
    private static List<String> sorted(List<String> ids) {
        return ids.stream().sorted(Comparator.comparing((String s) -> s.toLowerCase(java.util.Locale.ROOT))).toList();
    }
}
