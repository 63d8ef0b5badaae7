package io.jsalt.config;

import java.util.List;

/**
 * The master-wide options of the eauth backends, with Salt's top-level key names: {@code auth.pam.service} for
 * {@code pam} and the {@code auth.ldap.*} keys for {@code ldap} (Salt's {@code salt/auth/ldap.py} defaults). One
 * parser for the master's start-up check ({@link MasterConfig}) and for the master's re-reading of its file.
 */
public record EauthBackendOptions(String pamService, Ldap ldap) {
    public static final EauthBackendOptions DEFAULTS = new EauthBackendOptions("login", Ldap.DEFAULTS);

    /**
     * {@code auth.ldap.*}: where ({@code uri}, or {@code server}/{@code port} with {@code tls} for ldaps, or
     * {@code starttls}), how to find the user ({@code binddn}/{@code bindpw} and {@code filter} under
     * {@code basedn} with {@code scope} 0 base, 1 one level or 2 subtree, or {@code binddn} as a template such as {@code uid={{ username }},ou=people,dc=example}, or
     * an {@code anonymous} search), and the groups ({@code groupclass} entries under {@code ou=<groupou>} whose
     * {@code accountattributename} names the user, plus the user entry's {@code groupattribute} values).
     */
    public record Ldap(String uri, String server, int port, boolean tls, boolean starttls, boolean anonymous, String basedn,
            String binddn, String bindpw, String filter, int scope, String groupou, String groupclass, String accountattributename,
            String groupattribute) {
        public static final Ldap DEFAULTS = new Ldap("", "localhost", 389, false, false, false, "", "", "", "", 2, "Groups", "posixGroup",
                "memberUid", "memberOf");

        @Override
        public String toString() {
            return "Ldap[" + (uri.isEmpty() ? (tls ? "ldaps://" : "ldap://") + server + ":" + port : uri) + ", basedn=" + basedn
                    + ", binddn=" + binddn + "]"; // never bindpw
        }
    }

    public static EauthBackendOptions read(ConfigFile config) {
        Ldap d = Ldap.DEFAULTS;
        boolean tls = config.bool("auth.ldap.tls", d.tls());
        boolean starttls = config.bool("auth.ldap.starttls", d.starttls());
        if (tls && starttls) {
            throw config.refuse("auth.ldap.starttls", "not both auth.ldap.tls and auth.ldap.starttls (Salt refuses them together)");
        }
        for (String layout : List.of("activedirectory", "freeipa")) {
            if (config.bool("auth.ldap." + layout, false)) {
                throw config.refuse("auth.ldap." + layout, "False: jsalt reads OpenLDAP's group layout only (posixGroup entries, memberOf)");
            }
        }
        if (config.bool("auth.ldap.no_verify", false)) {
            throw config.refuse("auth.ldap.no_verify", "False: jsalt always checks the server's certificate (add its CA to the JVM's trust store)");
        }
        Ldap ldap = new Ldap(
                config.string("auth.ldap.uri", d.uri()),
                config.string("auth.ldap.server", d.server()),
                config.integer("auth.ldap.port", d.port(), 1, 65_535),
                tls,
                starttls,
                config.bool("auth.ldap.anonymous", d.anonymous()),
                config.string("auth.ldap.basedn", d.basedn()),
                config.string("auth.ldap.binddn", d.binddn()),
                config.string("auth.ldap.bindpw", d.bindpw()),
                config.string("auth.ldap.filter", d.filter()),
                config.integer("auth.ldap.scope", d.scope(), 0, 2),
                config.string("auth.ldap.groupou", d.groupou()),
                config.string("auth.ldap.groupclass", d.groupclass()),
                config.string("auth.ldap.accountattributename", d.accountattributename()),
                config.string("auth.ldap.groupattribute", d.groupattribute()));
        return new EauthBackendOptions(config.string("auth.pam.service", "login"), ldap);
    }
}
