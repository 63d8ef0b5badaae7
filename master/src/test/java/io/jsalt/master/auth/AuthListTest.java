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
        assertThat(thatch.allowsPublish("test.ping", ArgConditions.NONE, Set.of("web1", "db1"), FLEET)).isTrue();
        assertThat(thatch.allowsPublish("network.interfaces", ArgConditions.NONE, Set.of("db1"), FLEET)).isTrue();
        assertThat(thatch.allowsPublish("cmd.run", ArgConditions.NONE, Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void dotStarAllowsEveryExecutionFunctionButNoRunnerOrWheel() {
        AuthList fred = new AuthList(List.of(".*"));
        assertThat(fred.allowsPublish("cmd.run", ArgConditions.NONE, Set.of("web1"), FLEET)).isTrue();
        assertThat(fred.allowsSpecial("runner", "jobs.list_jobs", ArgConditions.NONE)).isFalse();
        assertThat(fred.allowsSpecial("wheel", "key.list_all", ArgConditions.NONE)).isFalse();
    }

    @Test
    void aFunctionMustMatchWholeNotOnlyItsStart() {
        AuthList steve = new AuthList(List.of("test.ping"));
        assertThat(steve.allowsPublish("test.ping", ArgConditions.NONE, Set.of("web1"), FLEET)).isTrue();
        assertThat(steve.allowsPublish("test.ping_evil", ArgConditions.NONE, Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void aTargetEntryAllowsItsFunctionsOnlyOnMinionsItMatches() {
        AuthList dave = new AuthList(List.of(Map.of("web*", List.of("test.*", "pkg.*")), Map.of("G@role:db", List.of("test.ping"))));
        assertThat(dave.allowsPublish("pkg.install", ArgConditions.NONE, Set.of("web1", "web2"), FLEET)).isTrue();
        assertThat(dave.allowsPublish("pkg.install", ArgConditions.NONE, Set.of("web1", "db1"), FLEET)).isFalse();
        assertThat(dave.allowsPublish("test.ping", ArgConditions.NONE, Set.of("db1"), FLEET)).isTrue();
        assertThat(dave.allowsPublish("test.version", ArgConditions.NONE, Set.of("db1"), FLEET)).isFalse();
    }

    @Test
    void anEmptyTargetSetIsNeverAllowed() {
        // CVE-2022-22941: a target that matches nothing must not slip past the target check
        assertThat(new AuthList(List.of(".*")).allowsPublish("test.ping", ArgConditions.NONE, Set.of(), FLEET)).isFalse();
        assertThat(new AuthList(List.of(Map.of("nomatch*", List.of(".*")))).allowsPublish("test.ping", ArgConditions.NONE, Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void runnerWheelAndModuleGrantsFollowSaltsSpecCheck() {
        assertThat(new AuthList(List.of("@runner")).allowsSpecial("runner", "manage.up", ArgConditions.NONE)).isTrue();
        assertThat(new AuthList(List.of("@runner")).allowsSpecial("wheel", "key.list_all", ArgConditions.NONE)).isFalse();
        assertThat(new AuthList(List.of("@wheel")).allowsSpecial("wheel", "key.list_all", ArgConditions.NONE)).isTrue();
        assertThat(new AuthList(List.of("@jobs")).allowsSpecial("runner", "jobs.list_jobs", ArgConditions.NONE)).isTrue();
        assertThat(new AuthList(List.of("@jobs")).allowsSpecial("runner", "manage.up", ArgConditions.NONE)).isFalse();
        AuthList limited = new AuthList(List.of(Map.of("@runner", List.of("jobs.list_.*"))));
        assertThat(limited.allowsSpecial("runner", "jobs.list_jobs", ArgConditions.NONE)).isTrue();
        assertThat(limited.allowsSpecial("runner", "manage.down", ArgConditions.NONE)).isFalse();
        assertThat(new AuthList(List.of(Map.of("@jobs", List.of("list_job")))).allowsSpecial("runner", "jobs.list_job", ArgConditions.NONE)).isTrue();
        // an @ grant never allows a publish
        assertThat(new AuthList(List.of("@runner")).allowsPublish("runner", ArgConditions.NONE, Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void aMalformedRegexMatchesNothing() {
        assertThat(new AuthList(List.of("test.(")).allowsPublish("test.ping", ArgConditions.NONE, Set.of("web1"), FLEET)).isFalse();
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

    /** Salt 3006's documented form: {@code - 'web*': [{'cmd.run': {args: ['^ls .*'], kwargs: {...}}}]}. */
    private static final AuthList LS_ONLY = new AuthList(List.of(Map.of("web*", List.of(
            Map.of("cmd.run", Map.of("args", List.of("ls .*"), "kwargs", Map.of("cwd", "/tmp(/.*)?"))),
            Map.of("test.arg", Map.of("args", java.util.Arrays.asList("a.*", null)))))));

    private static ArgConditions call(Object... args) {
        return ArgConditions.ofPublish(List.of(args));
    }

    private static Map<String, Object> kwargs(Object... pairs) {
        Map<String, Object> kw = new java.util.LinkedHashMap<>();
        kw.put("__kwarg__", true);
        for (int i = 0; i < pairs.length; i += 2) {
            kw.put((String) pairs[i], pairs[i + 1]);
        }
        return kw;
    }

    @Test
    void anArgumentConditionAllowsOnlyCallsWhoseArgumentsMatch() {
        assertThat(LS_ONLY.allowsPublish("cmd.run", call("ls -l /", kwargs("cwd", "/tmp")), Set.of("web1"), FLEET)).isTrue();
        assertThat(LS_ONLY.allowsPublish("cmd.run", call("ls /srv", kwargs("cwd", "/tmp/x")), Set.of("web1", "web2"), FLEET)).isTrue();
        assertThat(LS_ONLY.allowsPublish("cmd.run", call("rm -rf /", kwargs("cwd", "/tmp")), Set.of("web1"), FLEET)).isFalse();
        // the whole value must match: Salt's re.match would let "ls; rm -rf /" through "ls.*" too, as here, but not "xls"
        assertThat(LS_ONLY.allowsPublish("cmd.run", call("xls", kwargs("cwd", "/tmp")), Set.of("web1"), FLEET)).isFalse();
        assertThat(LS_ONLY.allowsPublish("cmd.run", call("ls /srv", kwargs("cwd", "/root")), Set.of("web1"), FLEET)).isFalse();
        // outside the condition's target
        assertThat(LS_ONLY.allowsPublish("cmd.run", call("ls /srv", kwargs("cwd", "/tmp")), Set.of("db1"), FLEET)).isFalse();
    }

    @Test
    void aConditionNeedsTheArgumentsItNames() {
        // Salt refuses a call that lacks a positional or keyword argument its condition names
        assertThat(LS_ONLY.allowsPublish("cmd.run", call(), Set.of("web1"), FLEET)).isFalse();
        assertThat(LS_ONLY.allowsPublish("cmd.run", call("ls /srv"), Set.of("web1"), FLEET)).isFalse();
        assertThat(LS_ONLY.allowsPublish("cmd.run", ArgConditions.NONE, Set.of("web1"), FLEET)).isFalse();
        // a null condition allows any value, but the argument must be there
        assertThat(LS_ONLY.allowsPublish("test.arg", call("abc", 42), Set.of("web1"), FLEET)).isTrue();
        assertThat(LS_ONLY.allowsPublish("test.arg", call("abc"), Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void argumentsTheConditionDoesNotNameAreRefusedUnlikeSalt() {
        // cmd.run's second to fourth positional arguments are cwd, stdin, runas: Salt would let them through
        assertThat(LS_ONLY.allowsPublish("cmd.run", call("ls /srv", "/root", "", "root", kwargs("cwd", "/tmp")), Set.of("web1"), FLEET)).isFalse();
        assertThat(LS_ONLY.allowsPublish("cmd.run", call("ls /srv", kwargs("cwd", "/tmp", "runas", "root")), Set.of("web1"), FLEET)).isFalse();
        // a misspelt condition key allows nothing rather than everything
        AuthList typo = new AuthList(List.of(Map.of("*", List.of(Map.of("cmd.run", Map.of("arg", List.of("ls")))))));
        assertThat(typo.allowsPublish("cmd.run", call("ls /srv"), Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void valuesAreComparedAsPythonWritesThem() {
        AuthList flags = new AuthList(List.of(Map.of("*", List.of(Map.of("test.echo", Map.of("args", List.of("True|5|None")))))));
        assertThat(flags.allowsPublish("test.echo", call(true), Set.of("db1"), FLEET)).isTrue();
        assertThat(flags.allowsPublish("test.echo", call(5L), Set.of("db1"), FLEET)).isTrue();
        assertThat(flags.allowsPublish("test.echo", ArgConditions.ofPublish(java.util.Arrays.asList((Object) null)), Set.of("db1"), FLEET)).isTrue();
        assertThat(flags.allowsPublish("test.echo", call(false), Set.of("db1"), FLEET)).isFalse();
        // a list argument passes no regex
        assertThat(flags.allowsPublish("test.echo", call(List.of("True")), Set.of("db1"), FLEET)).isFalse();
    }

    @Test
    void aListOfConditionsAllowsACallThatSatisfiesAnyOfThem() {
        AuthList either = new AuthList(List.of(Map.of("*", List.of(Map.of("pkg.install", List.of(
                Map.of("args", List.of("nginx")), Map.of("kwargs", Map.of("name", "redis"))))))));
        assertThat(either.allowsPublish("pkg.install", call("nginx"), Set.of("web1"), FLEET)).isTrue();
        assertThat(either.allowsPublish("pkg.install", call(kwargs("name", "redis")), Set.of("web1"), FLEET)).isTrue();
        assertThat(either.allowsPublish("pkg.install", call("redis"), Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void runnerConditionsCheckTheRunnersArguments() {
        AuthList jobs = new AuthList(List.of(Map.of("@runner", List.of(Map.of("jobs.list_job", Map.of("kwargs", Map.of("jid", "2026\\d+")))))));
        assertThat(jobs.allowsSpecial("runner", "jobs.list_job", ArgConditions.of(List.of(), Map.of("jid", "20261127000000000001")))).isTrue();
        assertThat(jobs.allowsSpecial("runner", "jobs.list_job", ArgConditions.of(List.of(), Map.of("jid", "x")))).isFalse();
        assertThat(jobs.allowsSpecial("runner", "jobs.list_job", ArgConditions.NONE)).isFalse();
        AuthList module = new AuthList(List.of(Map.of("@jobs", List.of(Map.of("list_job", Map.of("args", List.of("\\d+")))))));
        assertThat(module.allowsSpecial("runner", "jobs.list_job", ArgConditions.of(List.of("123"), null))).isTrue();
        assertThat(module.allowsSpecial("runner", "jobs.list_job", ArgConditions.of(List.of("abc"), null))).isFalse();
    }

    /** "install a package by name, nothing else": the condition names one positional argument and no keyword. */
    private static final AuthList DEPLOYER = new AuthList(List.of(Map.of("web*", List.of(Map.of("pkg.install",
            Map.of("args", List.of("[a-z0-9=._-]+")))))));

    @Test
    void aNameEqualsValueStringIsAKeywordArgumentOnTheMinionSoItMustBeNamedByKwargs() {
        // Salt's load_args_and_kwargs (and jsalt's FunctionBinder) read 'version=1.2.3' as version="1.2.3"
        assertThat(DEPLOYER.allowsPublish("pkg.install", ArgConditions.ofPublish(List.of("version=1.0")), Set.of("web1"), FLEET)).isFalse();
        assertThat(DEPLOYER.allowsPublish("pkg.install", call("nginx"), Set.of("web1"), FLEET)).isTrue();
        // the minion may also keep it positional (a name its function does not take): both readings must pass
        AuthList either = new AuthList(List.of(Map.of("web*", List.of(Map.of("pkg.install",
                Map.of("args", List.of("[a-z=.0-9]+"), "kwargs", Map.of("version", "[0-9.]+")))))));
        assertThat(either.allowsPublish("pkg.install", call("nginx", "version=1.0"), Set.of("web1"), FLEET))
                .as("positional: 'nginx' then a second positional the condition lacks").isFalse();
        AuthList both = new AuthList(List.of(Map.of("web*", List.of(Map.of("pkg.install", List.of(
                Map.of("args", List.of("[a-z]+", "version=[0-9.]+")),
                Map.of("args", List.of("[a-z]+"), "kwargs", Map.of("version", "[0-9.]+"))))))));
        assertThat(both.allowsPublish("pkg.install", call("nginx", "version=1.0"), Set.of("web1"), FLEET)).isTrue();
        assertThat(both.allowsPublish("pkg.install", call("nginx", "version=1.0;x"), Set.of("web1"), FLEET)).isFalse();
    }

    @Test
    void aKeywordWrittenNameEqualsValueMustMatchAsWrittenAndAsTheMinionReadsIt() {
        AuthList word = new AuthList(List.of(Map.of("*", List.of(Map.of("pkg.install",
                Map.of("kwargs", Map.of("name", "[a-z]+")))))));
        assertThat(word.allowsPublish("pkg.install", call(kwargs("name", "nginx")), Set.of("web1"), FLEET)).isTrue();
        assertThat(word.allowsPublish("pkg.install", call("name=nginx"), Set.of("web1"), FLEET))
                .as("positional, the string passes no args condition").isFalse();
        // a runner always takes the string as a keyword; 'yes' reaches the function as True
        AuthList runner = new AuthList(List.of(Map.of("@runner", List.of(Map.of("pkg.install", Map.of("kwargs", Map.of("name", "[a-z]+")))))));
        assertThat(runner.allowsSpecial("runner", "pkg.install", ArgConditions.of(List.of("name=nginx"), null))).isTrue();
        assertThat(runner.allowsSpecial("runner", "pkg.install", ArgConditions.of(List.of("name=yes"), null))).isFalse();
        assertThat(runner.allowsSpecial("runner", "pkg.install", ArgConditions.of(List.of("name=NGINX"), null))).isFalse();
    }

    @Test
    void aKwargMappingBeforeTheLastArgumentIsAKeywordArgumentOnTheMinionToo() {
        AuthList any = new AuthList(List.of(Map.of("web*", List.of(Map.of("cmd.run", Map.of("args", java.util.Arrays.asList(null, "ls .*")))))));
        Map<String, Object> hidden = Map.of("__kwarg__", true, "runas", "root");
        assertThat(any.allowsPublish("cmd.run", ArgConditions.ofPublish(List.of(hidden, "ls /root")), Set.of("web1"), FLEET)).isFalse();
        assertThat(LS_ONLY.allowsPublish("cmd.run", call(kwargs("cwd", "/tmp"), "ls /srv"), Set.of("web1"), FLEET))
                .as("a kwarg mapping first is still the kwargs it names").isTrue();
        assertThat(LS_ONLY.allowsSpecial("runner", "cmd.run", ArgConditions.of(List.of(hidden, "ls /"), null))).isFalse();
    }

    @Test
    void aPublishWithTooManyNameEqualsValueStringsPassesNoCondition() {
        int most = ArgConditions.MAX_AMBIGUOUS;
        assertThat(everyReadingAllowed(most).allowsPublish("test.arg", call(keywordStrings(most)), Set.of("db1"), FLEET)).isTrue();
        assertThat(everyReadingAllowed(most).allowsPublish("test.arg", call(keywordStrings(most - 1)), Set.of("db1"), FLEET))
                .as("each reading has one argument fewer than every alternative names").isFalse();
        assertThat(everyReadingAllowed(most + 1).allowsPublish("test.arg", call(keywordStrings(most + 1)), Set.of("db1"), FLEET)).isFalse();
    }

    private static Object[] keywordStrings(int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> "a" + i + "=1").toArray();
    }

    /** For n strings a0=1 ... : one alternative per reading (the strings kept positional, and the others as keywords). */
    private static AuthList everyReadingAllowed(int n) {
        List<Object> alternatives = new java.util.ArrayList<>();
        for (int mask = 0; mask < 1 << n; mask++) {
            Map<String, Object> named = new java.util.LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                if ((mask & (1 << i)) != 0) {
                    named.put("a" + i, "1");
                }
            }
            alternatives.add(Map.of("args", java.util.Collections.nCopies(n - named.size(), "a\\d=1"), "kwargs", named));
        }
        return new AuthList(List.of(Map.of("*", List.of(Map.of("test.arg", alternatives)))));
    }
}
