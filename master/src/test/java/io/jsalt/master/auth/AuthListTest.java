package io.jsalt.master.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/** Salt's external_auth examples (docs/topics/eauth), checked as Salt's auth_check / spec_check do. */
class AuthListTest {
    /** A fleet of three: web1, web2, db1; compound "web*" and "G@role:db" resolve as a master would. */
    private static final BiFunction<String, String, Set<String>> FLEET = (tgt, type) -> switch (tgt) {
        case "web*" -> Set.of("web1", "web2");
        case "G@role:db" -> Set.of("db1");
        case "*" -> Set.of("web1", "web2", "db1");
        default -> Set.of();
    };

    @Test
    void aFunctionRegexAllowsItsFunctionsOnEveryMinion() {
        AuthList thatch = new AuthList(List.of("test.*", "network.*"));
        assertThat(thatch.allowsPublish("test.ping", Set.of("web1", "db1"), FLEET)).isTrue();
        assertThat(thatch.allowsPublish("network.interfaces", Set.of("db1"), FLEET)).isTrue();
        assertThat(thatch.allowsPublish("cmd.run", Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void dotStarAllowsEveryExecutionFunctionButNoRunnerOrWheel() {
        AuthList fred = new AuthList(List.of(".*"));
        assertThat(fred.allowsPublish("cmd.run", Set.of("web1"), FLEET)).isTrue();
        assertThat(fred.allowsSpecial("runner", "jobs.list_jobs")).isFalse();
        assertThat(fred.allowsSpecial("wheel", "key.list_all")).isFalse();
    }

    @Test
    void aFunctionMustMatchWholeNotOnlyItsStart() {
        AuthList steve = new AuthList(List.of("test.ping"));
        assertThat(steve.allowsPublish("test.ping", Set.of("web1"), FLEET)).isTrue();
        assertThat(steve.allowsPublish("test.ping_evil", Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void aTargetEntryAllowsItsFunctionsOnlyOnMinionsItMatches() {
        AuthList dave = new AuthList(List.of(Map.of("web*", List.of("test.*", "pkg.*")), Map.of("G@role:db", List.of("test.ping"))));
        assertThat(dave.allowsPublish("pkg.install", Set.of("web1", "web2"), FLEET)).isTrue();
        assertThat(dave.allowsPublish("pkg.install", Set.of("web1", "db1"), FLEET)).isFalse();
        assertThat(dave.allowsPublish("test.ping", Set.of("db1"), FLEET)).isTrue();
        assertThat(dave.allowsPublish("test.version", Set.of("db1"), FLEET)).isFalse();
    }

    @Test
    void anEmptyTargetSetIsNeverAllowed() {
        // CVE-2022-22941: a target that matches nothing must not slip past the target check
        assertThat(new AuthList(List.of(".*")).allowsPublish("test.ping", Set.of(), FLEET)).isFalse();
        assertThat(new AuthList(List.of(Map.of("nomatch*", List.of(".*")))).allowsPublish("test.ping", Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void runnerWheelAndModuleGrantsFollowSaltsSpecCheck() {
        assertThat(new AuthList(List.of("@runner")).allowsSpecial("runner", "manage.up")).isTrue();
        assertThat(new AuthList(List.of("@runner")).allowsSpecial("wheel", "key.list_all")).isFalse();
        assertThat(new AuthList(List.of("@wheel")).allowsSpecial("wheel", "key.list_all")).isTrue();
        assertThat(new AuthList(List.of("@jobs")).allowsSpecial("runner", "jobs.list_jobs")).isTrue();
        assertThat(new AuthList(List.of("@jobs")).allowsSpecial("runner", "manage.up")).isFalse();
        AuthList limited = new AuthList(List.of(Map.of("@runner", List.of("jobs.list_.*"))));
        assertThat(limited.allowsSpecial("runner", "jobs.list_jobs")).isTrue();
        assertThat(limited.allowsSpecial("runner", "manage.down")).isFalse();
        assertThat(new AuthList(List.of(Map.of("@jobs", List.of("list_job")))).allowsSpecial("runner", "jobs.list_job")).isTrue();
        // an @ grant never allows a publish
        assertThat(new AuthList(List.of("@runner")).allowsPublish("runner", Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void aMalformedRegexMatchesNothing() {
        assertThat(new AuthList(List.of("test.(")).allowsPublish("test.ping", Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void usersGlobsAndStarFillTheListAsSaltDoes() {
        ExternalAuth eauth = new ExternalAuth(Map.of("file", Map.of(
                "^filename", "/etc/users",
                "thatch", List.of("test.*"),
                "ops-*", List.of("@runner"),
                "admins%", List.of(".*"),
                "*", List.of("test.ping"))));
        assertThat(eauth.authList("file", "thatch", List.of()).entries()).containsExactly("test.*");
        assertThat(eauth.authList("file", "ops-anna", List.of()).entries()).containsExactly("@runner");
        assertThat(eauth.authList("file", "bob", List.of()).entries()).containsExactly("test.ping");
        assertThat(eauth.authList("file", "bob", List.of("admins")).entries()).containsExactly(".*", "test.ping");
        assertThat(eauth.authList("pam", "thatch", List.of()).isEmpty()).isTrue();
        assertThat(eauth.options("file")).containsEntry("filename", "/etc/users");
    }
}
