package io.jsalt.master.auth;

import io.jsalt.config.EauthBackendOptions;
import io.jsalt.transport.codec.Printable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.naming.Context;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;
import javax.naming.ldap.InitialLdapContext;
import javax.naming.ldap.LdapContext;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.naming.ldap.StartTlsRequest;
import javax.naming.ldap.StartTlsResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's {@code ldap} eauth backend ({@code salt/auth/ldap.py}) over the JDK's own LDAP client (JNDI, no
 * dependency), with Salt's {@code auth.ldap.*} keys. The user's DN is found one of three ways, as in Salt:
 * with {@code binddn}/{@code bindpw} a service account searches {@code basedn} ({@code scope}, subtree by default) with {@code filter}
 * ({@code uid={{ username }}}), which must find exactly one entry; with {@code anonymous: True} that search is
 * made without credentials; with a {@code binddn} but no {@code bindpw} the binddn is the user's DN as a
 * template ({@code uid={{ username }},ou=people,dc=example,dc=org}). The password is then checked by binding as
 * that DN. Groups (OpenLDAP's layout, Salt's default): the {@code cn} of every {@code groupclass} entry under
 * {@code ou=<groupou>,<basedn>} whose {@code accountattributename} ({@code memberUid}) is the user, and the first
 * RDN value of each of the user entry's {@code groupattribute} ({@code memberOf}) values.
 *
 * <p>Safer than Salt: the user name is escaped in the filter and in the DN (Salt puts it raw into the group
 * search filter), an empty password is refused (an LDAP simple bind with one is an anonymous bind and succeeds),
 * and every connection has a 5 s connect and read timeout ({@link Eauth} asks this backend off the MWorkers, and
 * remembers {@link #hasUser} for a while). Active Directory and FreeIPA group layouts are not
 * offered.
 */
public final class LdapEauth implements EauthBackend {
    private static final Logger log = LoggerFactory.getLogger(LdapEauth.class);
    private static final Pattern USERNAME = Pattern.compile("\\{\\{\\s*username\\s*\\}\\}");
    private static final String TIMEOUT_MS = "5000";

    private final EauthBackendOptions.Ldap options;

    public LdapEauth(EauthBackendOptions.Ldap options) {
        this.options = options;
    }

    @Override
    public Optional<List<String>> authenticate(String user, String password) {
        if (password == null || password.isEmpty() || !EauthBackend.plausibleName(user)) {
            return Optional.empty();
        }
        try {
            Optional<String> dn = userDn(user);
            if (dn.isEmpty()) {
                return Optional.empty();
            }
            LdapContext asUser;
            try {
                asUser = connect(dn.get(), password);
            } catch (javax.naming.AuthenticationException e) {
                log.info("ldap: wrong password for {}", Printable.quoted(user));
                return Optional.empty();
            }
            try {
                return Optional.of(groups(user, dn.get(), asUser));
            } finally {
                close(asUser);
            }
        } catch (NamingException | IOException e) {
            log.error("ldap eauth of {} failed against {}: {}", Printable.quoted(user), options, e.toString());
            return Optional.empty();
        }
    }

    /** Found by a search when one is configured; a DN template cannot tell, so the user is taken to exist. */
    @Override
    public boolean hasUser(String user) {
        if (!EauthBackend.plausibleName(user)) {
            return false;
        }
        if (!searches()) {
            return true;
        }
        try {
            return userDn(user).isPresent();
        } catch (NamingException | IOException e) {
            // an unreachable directory must not end every session at once: the token lives on until it expires
            log.warn("ldap: cannot look up {} ({}); their token is kept", Printable.quoted(user), e.toString());
            return true;
        }
    }

    private boolean searches() {
        return (!options.binddn().isEmpty() && !options.bindpw().isEmpty()) || options.anonymous();
    }

    private Optional<String> userDn(String user) throws NamingException, IOException {
        if (!searches()) {
            if (options.binddn().isEmpty()) {
                log.error("external_auth:ldap needs auth.ldap.binddn (a DN template, or a search account with auth.ldap.bindpw)"
                        + " or auth.ldap.anonymous: True");
                return Optional.empty();
            }
            return Optional.of(render(options.binddn(), Rdn.escapeValue(user)));
        }
        if (options.filter().isEmpty()) {
            log.error("external_auth:ldap searches for the user's DN and needs auth.ldap.filter, e.g. uid={{ username }}");
            return Optional.empty();
        }
        LdapContext search = searchContext();
        try {
            // Salt's auth.ldap.scope: 0 base, 1 one level, 2 subtree, as JNDI numbers them
            SearchControls controls = new SearchControls(options.scope(), 2, 5000, new String[] {"1.1"}, false, false);
            NamingEnumeration<SearchResult> found = search.search(options.basedn(), render(options.filter(), filterValue(user)), controls);
            List<String> dns = new ArrayList<>();
            try {
                while (found.hasMore()) {
                    dns.add(found.next().getNameInNamespace());
                }
            } catch (javax.naming.SizeLimitExceededException e) {
                dns.add("(more)");
            }
            if (dns.size() != 1) {
                log.info("ldap: {} entries match the filter for {}: exactly one is needed", dns.isEmpty() ? "no" : "several",
                        Printable.quoted(user));
                return Optional.empty();
            }
            return Optional.of(dns.get(0));
        } finally {
            close(search);
        }
    }

    private List<String> groups(String user, String dn, LdapContext asUser) throws NamingException, IOException {
        LdapContext ctx = searches() ? searchContext() : asUser;
        try {
            List<String> groups = new ArrayList<>();
            String base = options.groupou().isEmpty() ? options.basedn() : "ou=" + Rdn.escapeValue(options.groupou()) + "," + options.basedn();
            String filter = "(&(" + options.accountattributename() + "=" + filterValue(user) + ")(objectClass=" + options.groupclass() + "))";
            SearchControls controls = new SearchControls(SearchControls.SUBTREE_SCOPE, 1000, 5000, new String[] {"cn"}, false, false);
            try {
                NamingEnumeration<SearchResult> found = ctx.search(base, filter, controls);
                while (found.hasMore()) {
                    Attribute cn = found.next().getAttributes().get("cn");
                    if (cn != null && cn.get() != null) {
                        groups.add(String.valueOf(cn.get()));
                    }
                }
            } catch (javax.naming.NameNotFoundException e) {
                log.debug("ldap: no group folder {}", base);
            }
            Attribute memberOf = ctx.getAttributes(dn, new String[] {options.groupattribute()}).get(options.groupattribute());
            if (memberOf != null) {
                NamingEnumeration<?> values = memberOf.getAll();
                while (values.hasMore()) {
                    firstRdnValue(String.valueOf(values.next())).ifPresent(groups::add);
                }
            }
            return groups.stream().distinct().sorted().toList();
        } finally {
            if (ctx != asUser) {
                close(ctx);
            }
        }
    }

    private LdapContext searchContext() throws NamingException, IOException {
        if (!options.binddn().isEmpty() && !options.bindpw().isEmpty()) {
            return connect(options.binddn(), options.bindpw());
        }
        return connect(null, null);
    }

    /** A connection bound as {@code dn} (or anonymous when null), over TLS or StartTLS when configured. */
    private LdapContext connect(String dn, String password) throws NamingException, IOException {
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, options.uri().isEmpty()
                ? (options.tls() ? "ldaps://" : "ldap://") + options.server() + ":" + options.port() : options.uri());
        env.put("com.sun.jndi.ldap.connect.timeout", TIMEOUT_MS);
        env.put("com.sun.jndi.ldap.read.timeout", TIMEOUT_MS);
        env.put(Context.REFERRAL, "ignore");
        env.put("com.sun.jndi.ldap.connect.pool", "false");
        if (!options.starttls()) {
            bindEnv(env, dn, password);
            return new InitialLdapContext(env, null);
        }
        env.put(Context.SECURITY_AUTHENTICATION, "none");
        LdapContext ctx = new InitialLdapContext(env, null);
        try {
            StartTlsResponse tls = (StartTlsResponse) ctx.extendedOperation(new StartTlsRequest());
            tls.negotiate();
            // JNDI binds again with the new credentials at the next operation, now inside TLS
            Hashtable<String, Object> creds = new Hashtable<>();
            bindEnv(creds, dn, password);
            for (var e : creds.entrySet()) {
                ctx.addToEnvironment(e.getKey(), e.getValue());
            }
            ctx.getAttributes("", new String[] {"1.1"});
            return ctx;
        } catch (NamingException | IOException | RuntimeException e) {
            close(ctx);
            throw e;
        }
    }

    private static void bindEnv(Hashtable<String, Object> env, String dn, String password) {
        if (dn == null) {
            env.put(Context.SECURITY_AUTHENTICATION, "none");
            return;
        }
        env.put(Context.SECURITY_AUTHENTICATION, "simple");
        env.put(Context.SECURITY_PRINCIPAL, dn);
        env.put(Context.SECURITY_CREDENTIALS, password);
    }

    /** Salt's Jinja {@code {{ username }}}, the value already escaped for where it goes. */
    static String render(String template, String escapedUser) {
        return USERNAME.matcher(template).replaceAll(Matcher.quoteReplacement(escapedUser));
    }

    /** RFC 4515: a value inside a search filter. */
    static String filterValue(String value) {
        StringBuilder out = new StringBuilder();
        for (char c : value.toCharArray()) {
            switch (c) {
                case '\\' -> out.append("\\5c");
                case '*' -> out.append("\\2a");
                case '(' -> out.append("\\28");
                case ')' -> out.append("\\29");
                case '\0' -> out.append("\\00");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static Optional<String> firstRdnValue(String dn) {
        try {
            LdapName name = new LdapName(dn);
            return name.isEmpty() ? Optional.empty() : Optional.of(String.valueOf(name.getRdn(name.size() - 1).getValue()));
        } catch (javax.naming.InvalidNameException e) {
            return Optional.empty();
        }
    }

    private static void close(LdapContext ctx) {
        try {
            ctx.close();
        } catch (NamingException e) {
            log.debug("ldap: closing a connection: {}", e.toString());
        }
    }
}
