package io.jsalt.master.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.EauthBackendOptions;
import io.jsalt.master.testing.Slapd;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Salt's ldap eauth against a real OpenLDAP (Debian's slapd) this test starts in a temporary folder. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LdapEauthTest {
    private static final String PEOPLE = "ou=people," + Slapd.SUFFIX;
    private Slapd slapd;

    @BeforeAll
    void startDirectory() {
        slapd = Slapd.start();
        slapd.add("""
                dn: %1$s
                objectClass: organizationalUnit
                ou: people

                dn: ou=Groups,%2$s
                objectClass: organizationalUnit
                ou: Groups

                dn: ou=contractors,%2$s
                objectClass: organizationalUnit
                ou: contractors

                dn: cn=svc,%2$s
                objectClass: person
                cn: svc
                sn: service
                userPassword: svc-pw

                dn: uid=ann,%1$s
                objectClass: inetOrgPerson
                uid: ann
                cn: Ann
                sn: A
                userPassword: ann-pw

                dn: uid=bob,%1$s
                objectClass: inetOrgPerson
                uid: bob
                cn: Bob
                sn: B
                userPassword: bob-pw

                dn: uid=twin,%1$s
                objectClass: inetOrgPerson
                uid: twin
                cn: Twin
                sn: T
                userPassword: twin-pw

                dn: uid=twin,ou=contractors,%2$s
                objectClass: inetOrgPerson
                uid: twin
                cn: Twin too
                sn: T
                userPassword: twin-pw

                dn: cn=ops,ou=Groups,%2$s
                objectClass: posixGroup
                cn: ops
                gidNumber: 5001
                memberUid: ann

                dn: cn=dev,ou=Groups,%2$s
                objectClass: posixGroup
                cn: dev
                gidNumber: 5002
                memberUid: ann
                memberUid: bob
                """.formatted(PEOPLE, Slapd.SUFFIX));
    }

    @AfterAll
    void stopDirectory() {
        if (slapd != null) {
            slapd.close();
        }
    }

    private EauthBackendOptions.Ldap options(String binddn, String bindpw, String filter, boolean anonymous) {
        return new EauthBackendOptions.Ldap("", "127.0.0.1", slapd.port(), false, false, anonymous, Slapd.SUFFIX, binddn, bindpw,
                filter, 2, "Groups", "posixGroup", "memberUid", "memberOf");
    }

    private LdapEauth searching() {
        return new LdapEauth(options("cn=svc," + Slapd.SUFFIX, "svc-pw", "(uid={{ username }})", false));
    }

    @Test
    void aServiceAccountFindsTheUserWhosePasswordABindChecksAndTheGroupsComeFromTheGroupOu() {
        assertThat(searching().authenticate("ann", "ann-pw")).contains(List.of("dev", "ops"));
        assertThat(searching().authenticate("bob", "bob-pw")).contains(List.of("dev"));
        assertThat(searching().authenticate("ann", "bob-pw")).isEmpty();
        assertThat(searching().authenticate("carl", "ann-pw")).isEmpty();
    }

    @Test
    void anEmptyPasswordIsRefusedThoughSuchABindWouldSucceedAnonymously() {
        assertThat(searching().authenticate("ann", "")).isEmpty();
        assertThat(searching().authenticate("ann", null)).isEmpty();
    }

    @Test
    void aFilterMatchingSeveralEntriesAuthenticatesNobody() {
        assertThat(searching().authenticate("twin", "twin-pw")).isEmpty();
    }

    @Test
    void theUserNameIsEscapedInTheFilterAndInTheDn() {
        // unescaped, "*" would match every uid and "ann)(uid=*" would widen the filter
        assertThat(searching().authenticate("*", "ann-pw")).isEmpty();
        assertThat(searching().authenticate("ann)(uid=*", "ann-pw")).isEmpty();
        LdapEauth template = new LdapEauth(options("uid={{ username }}," + PEOPLE, "", "", false));
        assertThat(template.authenticate("ann", "ann-pw")).contains(List.of("dev", "ops"));
        assertThat(template.authenticate("ann,ou=people", "ann-pw")).isEmpty();
    }

    @Test
    void aDnTemplateOrAnAnonymousSearchFindTheUserToo() {
        assertThat(new LdapEauth(options("uid={{username}}," + PEOPLE, "", "", false)).authenticate("bob", "bob-pw")).contains(List.of("dev"));
        LdapEauth anonymous = new LdapEauth(options("", "", "(&(objectClass=inetOrgPerson)(uid={{ username }}))", true));
        assertThat(anonymous.authenticate("bob", "bob-pw")).contains(List.of("dev"));
        assertThat(anonymous.authenticate("bob", "nope")).isEmpty();
    }

    @Test
    void theScopeOfTheUserSearchIsSalts() {
        // one level under dc=example,dc=org holds no person but svc: ann, one level further down, is not found
        EauthBackendOptions.Ldap oneLevel = new EauthBackendOptions.Ldap("", "127.0.0.1", slapd.port(), false, false, false,
                Slapd.SUFFIX, "cn=svc," + Slapd.SUFFIX, "svc-pw", "(uid={{ username }})", 1, "Groups", "posixGroup", "memberUid", "memberOf");
        assertThat(new LdapEauth(oneLevel).authenticate("ann", "ann-pw")).isEmpty();
        EauthBackendOptions.Ldap underPeople = new EauthBackendOptions.Ldap("", "127.0.0.1", slapd.port(), false, false, false,
                PEOPLE, "cn=svc," + Slapd.SUFFIX, "svc-pw", "(uid={{ username }})", 1, "Groups", "posixGroup", "memberUid", "memberOf");
        // found one level under ou=people; no ou=Groups under that base, so no groups
        assertThat(new LdapEauth(underPeople).authenticate("ann", "ann-pw")).contains(List.of());
    }

    @Test
    void aSearchTellsWhetherTheDirectoryStillHasTheUser() {
        assertThat(searching().hasUser("ann")).isTrue();
        assertThat(searching().hasUser("carl")).isFalse();
        assertThat(new LdapEauth(options("", "", "(uid={{ username }})", false)).authenticate("ann", "ann-pw"))
                .as("neither a search account, anonymous search nor a DN template: nothing to bind with").isEmpty();
    }

    @Test
    void anUnreachableDirectoryRefusesWithinItsTimeout() {
        EauthBackendOptions.Ldap nowhere = new EauthBackendOptions.Ldap("", "127.0.0.1", 1, false, false, false, Slapd.SUFFIX,
                "uid={{ username }}," + PEOPLE, "", "", 2, "Groups", "posixGroup", "memberUid", "memberOf");
        assertThat(new LdapEauth(nowhere).authenticate("ann", "ann-pw")).isEmpty();
    }

    @Test
    void groupEntriesOfExternalAuthGiveTheRightsOfTheUsersLdapGroups(@TempDir Path dir) {
        EauthBackendOptions backends = new EauthBackendOptions("login", options("cn=svc," + Slapd.SUFFIX, "svc-pw", "(uid={{ username }})", false));
        EauthSettings settings = EauthSettings.fixed(Map.of("ldap", Map.of(
                "ops%", List.of("@runner"),
                "dev%", List.of("test.*"))), 3600, backends);
        Eauth eauth = new Eauth(settings, new TokenFiles(dir.resolve("tokens"), Clock.systemUTC(), () -> 3600));

        Optional<EauthToken> token;
        try {
            token = Optional.of(eauth.login(Map.of("eauth", "ldap", "username", "ann", "password", "ann-pw")));
        } catch (EauthException e) {
            throw new AssertionError(e);
        }
        assertThat(token.get().groups()).containsExactlyInAnyOrder("ops", "dev");
        AuthList ann = eauth.rights("ldap", "ann", token.get().groups());
        assertThat(ann.allowsSpecial("runner", "jobs.list_jobs", ArgConditions.NONE)).isTrue();
        assertThat(ann.entries()).containsExactlyInAnyOrder("@runner", "test.*");
        try {
            Eauth.Caller bob = eauth.caller(Map.of("eauth", "ldap", "username", "bob", "password", "bob-pw"));
            assertThat(bob.perms().entries()).containsExactly("test.*");
            Eauth.Caller byToken = eauth.caller(Map.of("token", token.get().token()));
            assertThat(byToken.perms().allowsSpecial("runner", "manage.up", ArgConditions.NONE)).isTrue();
        } catch (EauthException e) {
            throw new AssertionError(e);
        }
    }
}
