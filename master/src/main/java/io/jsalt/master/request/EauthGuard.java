package io.jsalt.master.request;

import io.jsalt.master.auth.ArgConditions;
import io.jsalt.master.auth.Eauth;
import io.jsalt.master.auth.EauthException;
import io.jsalt.master.targeting.TargetResolver;
import io.jsalt.transport.codec.Printable;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.PublishRequest;
import io.jsalt.transport.target.InvalidTargetException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's check of an eauth request, in front of {@code publish}, {@code runner} and {@code wheel}, as
 * Salt's {@code ClearFuncs}: a request with the root client key passes unchanged; one carrying a
 * {@code token} or {@code eauth}/{@code username}/{@code password} (for a publish in its {@code kwargs}, as
 * Salt's LocalClient sends them, or at the top level) is authenticated, checked against the user's rights in
 * {@code external_auth}, and only then handed to the handler, with the credentials removed, the user's own
 * name as {@code user} (nobody speaks for another) and the root key.
 *
 * <p>A publish is resolved here, at publish time, and goes out as the list of minion ids that were checked
 * (tgt_type {@code list}), so what runs is exactly what was allowed: a minion whose grains change, or one
 * the master has no grains for (undecided), is not reached through a grain target by an eauth user. A
 * target set that matches nothing is refused (CVE-2022-22941), and so is a function outside the rights;
 * nothing is published then.
 */
public final class EauthGuard implements ClearCommand {
    private static final Logger log = LoggerFactory.getLogger(EauthGuard.class);
    static final String DENIED = "Authorization error occurred.";
    private static final List<String> CREDENTIALS = List.of("token", "eauth", "username", "password");

    private final String kind;
    private final Eauth eauth;
    private final ClientKey clientKey;
    private final TargetResolver targets;
    private final ClearCommand inner;

    private EauthGuard(String kind, Eauth eauth, ClientKey clientKey, TargetResolver targets, ClearCommand inner) {
        this.kind = kind;
        this.eauth = eauth;
        this.clientKey = clientKey;
        this.targets = targets;
        this.inner = inner;
    }

    /** Guards {@code publish}: rights checked on the target as resolved now. */
    public static EauthGuard publish(Eauth eauth, ClientKey clientKey, TargetResolver targets, ClearCommand inner) {
        return new EauthGuard("publish", eauth, clientKey, targets, inner);
    }

    /** Guards {@code runner} or {@code wheel} ({@code kind}): Salt's spec_check ({@code @runner}, {@code @wheel}, {@code @jobs}). */
    public static EauthGuard special(String kind, Eauth eauth, ClientKey clientKey, ClearCommand inner) {
        return new EauthGuard(kind, eauth, clientKey, null, inner);
    }

    @Override
    public byte[] handle(Map<String, Object> load) {
        Map<String, Object> creds = credentials(load);
        if (clientKey.matches(load.get("key")) || !Eauth.names(creds)) {
            return inner.handle(load); // root, or nobody: the handler accepts or refuses the key as before
        }
        Eauth.Caller caller;
        try {
            caller = eauth.caller(creds, SourceAddress.of(load, clientKey));
        } catch (EauthException e) {
            log.warn("{} refused: {}", kind, e.getMessage());
            return SaltPack.pack(RequestDispatcher.error(e.getMessage()));
        }
        return kind.equals("publish") ? publish(load, caller) : special(load, caller);
    }

    private byte[] publish(Map<String, Object> load, Eauth.Caller caller) {
        PublishRequest req = PublishRequest.fromLoad(load);
        List<String> targeted;
        try {
            targeted = targets.resolve(req.tgtType(), req.tgt()).expected();
        } catch (InvalidTargetException e) {
            log.warn("publish by {} refused: invalid target: {}", Printable.quoted(caller.name()), Printable.reason(e));
            return SaltPack.pack(RequestDispatcher.error("Invalid target: " + e.getMessage()));
        }
        if (!caller.perms().allowsPublish(req.fun(), ArgConditions.ofPublish(req.arg()), new LinkedHashSet<>(targeted), this::expand)) {
            log.warn("publish of {} by {} ({}) refused: outside their rights, or no minion targeted",
                    Printable.quoted(req.fun()), Printable.quoted(caller.name()), caller.eauth());
            return SaltPack.pack(RequestDispatcher.error(DENIED));
        }
        Map<String, Object> kwargs = new LinkedHashMap<>(req.kwargs());
        CREDENTIALS.forEach(kwargs::remove);
        PublishRequest checked = new PublishRequest(List.copyOf(targeted), req.fun(), req.arg(), "list", caller.name(),
                clientKey.value(), kwargs);
        log.info("publish of {} by {} ({}) allowed on {} minion(s)", req.fun(), Printable.quoted(caller.name()), caller.eauth(),
                targeted.size());
        return inner.handle(checked.toLoad());
    }

    private byte[] special(Map<String, Object> load, Eauth.Caller caller) {
        String fun = Wire.string(load, "fun");
        if (!caller.perms().allowsSpecial(kind, fun, specialArgs(load))) {
            log.warn("{} {} by {} ({}) refused: outside their rights", kind, Printable.quoted(fun), Printable.quoted(caller.name()),
                    caller.eauth());
            // Salt's runner and wheel clients word it so
            return SaltPack.pack(RequestDispatcher.error(
                    "Authentication failure of type \"" + caller.via() + "\" occurred for user " + caller.name() + "."));
        }
        Map<String, Object> checked = new LinkedHashMap<>(load);
        CREDENTIALS.forEach(checked::remove);
        checked.remove(SourceAddress.FIELD);
        checked.put("key", clientKey.value());
        checked.put("user", caller.name());
        log.info("{} {} by {} ({}) allowed", kind, fun, Printable.quoted(caller.name()), caller.eauth());
        return inner.handle(checked);
    }

    /**
     * The arguments an argument condition sees, exactly those the call will run with: a runner's {@code arg} and
     * {@code kwarg}; for a wheel call, whose arguments travel as top-level keys ({@code match}, {@code id_}, ...),
     * those keys as keyword arguments, unless the load holds both {@code arg} and {@code kwarg}, which the wheel
     * then binds instead (as Salt's WheelClient), ignoring the top-level keys.
     */
    private ArgConditions specialArgs(Map<String, Object> load) {
        if (kind.equals("runner") || (load.get("arg") instanceof List<?> && load.get("kwarg") instanceof Map<?, ?>)) {
            return ArgConditions.of(load.get("arg"), load.get("kwarg"));
        }
        Map<String, Object> kwargs = new LinkedHashMap<>(load);
        // "asynchronous" is how the call runs (wheel_async), not an argument of the function
        List.of("cmd", "fun", "key", "user", "arg", "kwarg", "asynchronous", SourceAddress.FIELD).forEach(kwargs::remove);
        CREDENTIALS.forEach(kwargs::remove);
        return ArgConditions.of(load.get("arg"), kwargs);
    }

    /** An ACL's own target, resolved now; one that cannot be matched allows nothing. */
    private Set<String> expand(String tgt, String tgtType) {
        return expand(targets, tgt, tgtType);
    }

    static Set<String> expand(TargetResolver targets, String tgt, String tgtType) {
        try {
            return new LinkedHashSet<>(targets.resolve(tgtType, tgt).expected());
        } catch (InvalidTargetException e) {
            log.warn("external_auth target {} cannot be matched: {}", Printable.quoted(tgt), Printable.reason(e));
            return Set.of();
        }
    }

    /** A publish's credentials travel in its kwargs (Salt's LocalClient); runner and wheel carry them at the top. */
    private static Map<String, Object> credentials(Map<String, Object> load) {
        Map<String, Object> creds = new LinkedHashMap<>();
        CREDENTIALS.forEach(k -> {
            if (load.get(k) != null) {
                creds.put(k, load.get(k));
            }
        });
        if (load.get("kwargs") instanceof Map<?, ?> kwargs) {
            CREDENTIALS.forEach(k -> {
                if (kwargs.get(k) != null) {
                    creds.putIfAbsent(k, kwargs.get(k));
                }
            });
        }
        return creds;
    }
}
