package io.jsalt.master.auth;

import io.jsalt.transport.codec.Printable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who an eauth request speaks for, as Salt's {@code LoadAuth}: a token made by {@link #login} (Salt's
 * {@code mk_token}) or inline credentials ({@code eauth}, {@code username}, {@code password}). The rights
 * come from {@code external_auth} as it is now, not as it was at login, and a token dies with its user:
 * when the backend is no longer configured or no longer knows them, the token is deleted. Backends:
 * {@code file}, {@code pam}, {@code ldap}; any other name is refused like a wrong password. The groups a
 * backend reports at login (kept in the token) fill the {@code group%} entries.
 *
 * <p>The {@code ldap} and {@code pam} backends are asked on {@link BackendCalls}' threads, never on the MWorker
 * itself: a login waits at most {@link #LOGIN_WAIT} for the verdict, and whether a token's user still exists
 * is remembered for a while ({@link KnownUsers}), so a hung directory cannot stall the worker pool.
 */
public final class Eauth {
    private static final Logger log = LoggerFactory.getLogger(Eauth.class);
    public static final String BAD_TOKEN = "Authentication failure of type \"token\" occurred.";
    public static final String BAD_CREDENTIALS = "Authentication failure of type \"eauth\" occurred.";
    /** How long a login waits for a slow backend's verdict (an LDAP connection gives up by itself after 5 s). */
    static final java.time.Duration LOGIN_WAIT = java.time.Duration.ofSeconds(6);

    /** An authenticated user: their name, the backend that vouched for them, how ({@code token} or {@code eauth}), their rights. */
    public record Caller(String name, String eauth, String via, AuthList perms) {}

    private final EauthSettings settings;
    private final TokenFiles tokens;
    private final LoginLimiter limiter;
    private final BackendCalls backendCalls = new BackendCalls();
    private final KnownUsers knownUsers = new KnownUsers(backendCalls, java.time.Clock.systemUTC());

    public Eauth(EauthSettings settings, TokenFiles tokens) {
        this(settings, tokens, new LoginLimiter(java.time.Clock.systemUTC(), () -> settings.current().loginLimits()));
    }

    public Eauth(EauthSettings settings, TokenFiles tokens, LoginLimiter limiter) {
        this.settings = settings;
        this.tokens = tokens;
        this.limiter = limiter;
    }

    /** Whether a load carries eauth credentials or a token (so it is an eauth request, not a root-key one). */
    public static boolean names(Map<String, Object> creds) {
        return creds.get("token") != null || creds.get("eauth") != null;
    }

    /** The caller a load's {@code token} or {@code eauth}/{@code username}/{@code password} names. */
    public Caller caller(Map<String, Object> creds) throws EauthException {
        return caller(creds, null);
    }

    /** As {@link #caller(Map)}; {@code address}: where a password came from, when known (the login limit). */
    public Caller caller(Map<String, Object> creds, String address) throws EauthException {
        if (creds.get("token") != null) {
            EauthToken token = token(creds.get("token")).orElseThrow(() -> new EauthException(BAD_TOKEN));
            return new Caller(token.name(), token.eauth(), "token", rights(token.eauth(), token.name(), token.groups()));
        }
        String eauth = text(creds.get("eauth"));
        String user = text(creds.get("username"));
        List<String> groups = checkPassword(eauth, user, text(creds.get("password")), address);
        return new Caller(user, eauth, "eauth", rights(eauth, user, groups));
    }

    /** Salt's mk_token: a token for these credentials, or a refusal. */
    public EauthToken login(Map<String, Object> creds) throws EauthException {
        return login(creds, null);
    }

    /** As {@link #login(Map)}; {@code address}: where the password came from, when known (the login limit). */
    public EauthToken login(Map<String, Object> creds, String address) throws EauthException {
        String eauth = text(creds.get("eauth"));
        String user = text(creds.get("username"));
        List<String> groups = checkPassword(eauth, user, text(creds.get("password")), address);
        EauthToken token = tokens.create(user, eauth, groups);
        log.info("eauth login of {} through {}", Printable.quoted(user), eauth);
        return token;
    }

    /** Salt's get_token: the live token, if its user still exists in its backend; otherwise it is deleted. */
    public Optional<EauthToken> token(Object value) {
        Optional<EauthToken> found = tokens.find(value);
        if (found.isPresent() && !stillExists(found.get().eauth(), found.get().name())) {
            log.info("token of {} deleted: the user is no longer in external_auth:{}", found.get().name(), found.get().eauth());
            tokens.revoke(value);
            return Optional.empty();
        }
        return found;
    }

    /** Logout. */
    public boolean logout(Object value) {
        return tokens.revoke(value);
    }

    /** The user's rights in the current external_auth, with the entries of their groups. */
    public AuthList rights(String eauth, String user, List<String> groups) {
        return settings.current().externalAuth().authList(eauth, user, groups);
    }

    /** The backend's verdict (the user's groups), behind the login limit: past it, the password is not even looked at. */
    private List<String> checkPassword(String eauth, String user, String password, String address) throws EauthException {
        String name = user == null ? "" : user;
        if (!limiter.allows(name, address)) {
            log.warn("eauth refused without a password check: too many failed logins for {} or from {}", Printable.quoted(name),
                    address == null ? "direct clients" : Printable.quoted(address));
            throw new EauthException(LoginLimiter.TOO_MANY);
        }
        Optional<EauthBackend> backend = eauth == null || user == null || password == null ? Optional.empty() : backend(eauth);
        Optional<List<String>> groups = backend.isEmpty() ? Optional.empty()
                : slow(eauth) ? backendCalls.call("the " + eauth + " backend", () -> backend.get().authenticate(user, password), LOGIN_WAIT)
                : backend.get().authenticate(user, password);
        if (groups.isEmpty()) {
            limiter.failed(name, address);
            throw new EauthException(BAD_CREDENTIALS);
        }
        return groups.get();
    }

    private boolean stillExists(String eauth, String user) {
        Optional<EauthBackend> backend = backend(eauth);
        if (backend.isEmpty()) {
            return false;
        }
        return slow(eauth) ? knownUsers.stillKnown(eauth, user, () -> backend.get().hasUser(user)) : backend.get().hasUser(user);
    }

    /** A backend that asks another service (a directory, the PAM stack): asked off the MWorker, its answers remembered. */
    private static boolean slow(String eauth) {
        return "ldap".equals(eauth) || "pam".equals(eauth);
    }

    private Optional<EauthBackend> backend(String eauth) {
        EauthSettings.Current current = settings.current();
        ExternalAuth externalAuth = current.externalAuth();
        if (!externalAuth.enabled(eauth)) {
            log.warn("eauth refused: the eauth system {} is not enabled", Printable.quoted(eauth));
            return Optional.empty();
        }
        try {
            return switch (eauth) {
                case "file" -> Optional.of(new FileEauth(externalAuth.options("file")));
                case "pam" -> Optional.of(new PamEauth(current.backends().pamService()));
                case "ldap" -> Optional.of(new LdapEauth(current.backends().ldap()));
                default -> {
                    log.warn("eauth refused: the eauth system {} is not implemented (file, pam, ldap)", Printable.quoted(eauth));
                    yield Optional.empty();
                }
            };
        } catch (IllegalArgumentException e) {
            log.error("external_auth:{} is misconfigured: {}", eauth, e.getMessage());
            return Optional.empty();
        }
    }

    private static String text(Object value) {
        return value instanceof String s ? s : null;
    }
}
