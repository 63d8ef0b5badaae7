package io.jsalt.master.pillar;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jsalt.config.PillarSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The pillar of one minion, compiled from real files under temporary pillar_roots. */
class PillarCompilerTest {
    @TempDir
    Path root;
    Path base;
    Path dev;
    final AtomicReference<PillarSettings> settings = new AtomicReference<>();
    final Map<String, Object> nodegroups = new LinkedHashMap<>();
    PillarCompiler compiler;
    final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger pillarLogger;

    @BeforeEach
    void setUp() {
        base = root.resolve("pillar/base");
        dev = root.resolve("pillar/dev");
        settings.set(new PillarSettings(Map.of("base", List.of(base), "dev", List.of(dev)), "smart", false, true));
        compiler = new PillarCompiler(settings::get, () -> nodegroups);
        // every logger, the renderers' libraries too, at every level: no pillar value may reach any of them
        pillarLogger = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        pillarLogger.setLevel(Level.ALL);
        logs.start();
        pillarLogger.addAppender(logs);
    }

    @AfterEach
    void tearDown() {
        pillarLogger.detachAppender(logs);
        pillarLogger.setLevel(Level.OFF);
    }

    private void write(Path dir, String path, String text) throws IOException {
        Path file = dir.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private Map<String, Object> pillarOf(String id, Map<String, Object> grains) {
        return compiler.compile(new PillarCompiler.Request(id, grains, null, null, Map.of()));
    }

    @Test
    void eachTargetMatcherOfTheTopFileChoosesByIdOrGrains() throws IOException {
        write(base, "top.sls", """
                base:
                  '*':
                    - common
                  'web*':
                    - web
                  'os:Debian':
                    - match: grain
                    - debian
                  '^db[0-9]+$':
                    - match: pcre
                    - db
                  'db1,cache1':
                    - match: list
                    - listed
                  'G@role:lb or L@web2':
                    - match: compound
                    - lb
                  edge:
                    - match: nodegroup
                    - edge
                """);
        for (String sls : List.of("common", "web", "debian", "db", "listed", "lb", "edge")) {
            write(base, sls + ".sls", sls + ": True\n");
        }
        nodegroups.put("edge", "L@db1");

        assertThat(pillarOf("web1", Map.of("os", "Debian")).keySet()).containsExactly("common", "web", "debian");
        assertThat(pillarOf("db1", Map.of("os", "RedHat")).keySet()).containsExactly("common", "db", "listed", "edge");
        assertThat(pillarOf("web2", Map.of("role", "app")).keySet()).containsExactly("common", "web", "lb");
        assertThat(pillarOf("x", Map.of("role", "lb")).keySet()).containsExactly("common", "lb");
    }

    @Test
    void slsRendersWithThatMinionsGrainsAndSaltsContext() throws IOException {
        write(base, "top.sls", "base:\n  '*':\n    - app\n");
        write(base, "app/init.sls", """
                {% set port = 8080 if grains['os'] == 'Debian' else 9090 %}
                app:
                  port: {{ port }}
                  host: {{ grains.id }}
                  who: {{ opts['id'] }}
                  env: {{ saltenv }}
                  sls: {{ sls }}
                  seen_pillar: {{ pillar | length }}
                """);
        assertThat(pillarOf("m1", Map.of("os", "Debian"))).isEqualTo(Map.of("app", Map.of(
                "port", 8080, "host", "m1", "who", "m1", "env", "base", "sls", "app", "seen_pillar", 0)));
        assertThat(pillarOf("m2", Map.of("os", "Arch"))).containsEntry("app", Map.of(
                "port", 9090, "host", "m2", "who", "m2", "env", "base", "sls", "app", "seen_pillar", 0));
    }

    @Test
    void sourcesMergeInTopOrderWithTheConfiguredStrategy() throws IOException {
        write(base, "top.sls", "base:\n  '*':\n    - one\n    - two\n");
        write(base, "one.sls", "users:\n  alice: {uid: 1}\npkgs: [vim]\n");
        write(base, "two.sls", "users:\n  bob: {uid: 2}\npkgs: [git]\n");

        assertThat(pillarOf("m", Map.of())).isEqualTo(Map.of(
                "users", Map.of("alice", Map.of("uid", 1), "bob", Map.of("uid", 2)), "pkgs", List.of("git")));

        settings.set(new PillarSettings(Map.of("base", List.of(base)), "smart", true, true));
        assertThat(pillarOf("m", Map.of())).containsEntry("pkgs", List.of("vim", "git"));

        settings.set(new PillarSettings(Map.of("base", List.of(base)), "overwrite", false, true));
        assertThat(pillarOf("m", Map.of())).containsEntry("users", Map.of("bob", Map.of("uid", 2)));
    }

    @Test
    void includesAreMergedUnderTheIncludingSlsWithKeyAndDefaults() throws IOException {
        write(base, "top.sls", "base:\n  '*':\n    - app\n");
        write(base, "app/init.sls", """
                include:
                  - .defaults
                  - app.db:
                      key: app:database
                      defaults:
                        dbname: prod
                app:
                  name: mine
                """);
        write(base, "app/defaults.sls", "app:\n  name: default\n  port: 80\n");
        write(base, "app/db.sls", "name: {{ dbname }}\n");

        assertThat(pillarOf("m", Map.of())).isEqualTo(Map.of("app", Map.of(
                "name", "mine", "port", 80, "database", Map.of("name", "prod"))));
    }

    @Test
    void globsInTheTopFileExpandOverTheSaltenvsSlsNames() throws IOException {
        write(base, "top.sls", "base:\n  '*':\n    - users.*\n");
        write(base, "users/alice.sls", "alice: 1\n");
        write(base, "users/bob.sls", "bob: 2\n");
        write(base, "other.sls", "other: 3\n");
        assertThat(pillarOf("m", Map.of())).isEqualTo(Map.of("alice", 1, "bob", 2));
    }

    @Test
    void everySaltenvsTopFileCountsUnlessTheStrategyIsNoneOrAPillarenvIsAsked() throws IOException {
        write(base, "top.sls", "base:\n  '*':\n    - b\n");
        write(base, "b.sls", "from_base: 1\n");
        write(dev, "top.sls", "dev:\n  '*':\n    - d\n");
        write(dev, "d.sls", "from_dev: 2\n");

        assertThat(pillarOf("m", Map.of())).isEqualTo(Map.of("from_base", 1, "from_dev", 2));
        assertThat(compiler.compile(new PillarCompiler.Request("m", Map.of(), null, "dev", Map.of())))
                .isEqualTo(Map.of("from_dev", 2));

        settings.set(new PillarSettings(Map.of("base", List.of(base), "dev", List.of(dev)), "none", false, true));
        assertThat(pillarOf("m", Map.of())).isEqualTo(Map.of("from_base", 1));
        assertThat(compiler.compile(new PillarCompiler.Request("m", Map.of(), "dev", null, Map.of())))
                .isEqualTo(Map.of("from_dev", 2));
    }

    @Test
    void aRenderErrorIsInErrorsAndTheLogNamesTheFileButNoValue() throws IOException {
        write(base, "top.sls", "base:\n  '*':\n    - good\n    - broken\n    - jinja\n    - missing\n");
        write(base, "good.sls", "db_password: hunter2-secret\n");
        write(base, "broken.sls", "api_key: s3cr3t-value\n  bad: [indent\n");
        write(base, "jinja.sls", "{% set token = 'tok3n-value' %}\nt: {{ token | int + undefined_thing.attr }}\n"
                + "{{ raise('tok3n-value') }}\n");

        Map<String, Object> pillar = pillarOf("m1", Map.of());

        assertThat(pillar).containsEntry("db_password", "hunter2-secret");
        assertThat(pillar.get("_errors")).isEqualTo(List.of(
                "Rendering SLS 'broken' failed. Please see master log for details.",
                "Rendering SLS 'jinja' failed. Please see master log for details.",
                "Specified SLS 'missing' in environment 'base' is not available on the salt master"));
        assertThat(logs.list).anySatisfy(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.WARN);
            assertThat(e.getFormattedMessage()).contains("m1", "'broken'", "YAML error at line");
        });
        assertThat(logs.list).allSatisfy(e -> assertThat(e.getFormattedMessage()
                + (e.getThrowableProxy() == null ? "" : ch.qos.logback.classic.spi.ThrowableProxyUtil.asString(e.getThrowableProxy())))
                .doesNotContain("hunter2").doesNotContain("s3cr3t").doesNotContain("tok3n").doesNotContain("indent"));
    }

    @Test
    void withoutSafeRenderErrorsTheMinionGetsTheCause() throws IOException {
        settings.set(new PillarSettings(Map.of("base", List.of(base)), "smart", false, false));
        write(base, "top.sls", "base:\n  '*':\n    - broken\n");
        write(base, "broken.sls", "{{ nothing | no_such_filter }}\n");
        assertThat((List<?>) pillarOf("m", Map.of()).get("_errors")).singleElement().asString()
                .startsWith("Rendering SLS 'broken' failed, render error:\n").contains("no filter named 'no_such_filter'");
    }

    @Test
    void aBrokenTopFileOrUnknownMatcherIsAnErrorNotACrash() throws IOException {
        write(base, "top.sls", "base:\n  '*':\n    - match: nosuch\n    - a\n  '*x':\n    - match: pillar\n    - a\n");
        write(base, "a.sls", "a: 1\n");
        assertThat((List<?>) pillarOf("mx", Map.of()).get("_errors")).hasSize(2)
                .anySatisfy(e -> assertThat(e).asString().contains("'*'").contains("nosuch"))
                .anySatisfy(e -> assertThat(e).asString().contains("match: pillar"));

        write(base, "top.sls", "base: [not, a, map\n");
        assertThat(pillarOf("m", Map.of())).isEqualTo(Map.of("_errors",
                List.of("Rendering Primary Top file failed. Please see master log for details.")));
    }

    @Test
    void theOverrideIsMergedLastAndNoPathEscapesTheRoots() throws IOException {
        write(base, "top.sls", "base:\n  '*':\n    - a\n    - ../../../etc/passwd\n");
        write(base, "a.sls", "a: {x: 1, y: 2}\n");
        Map<String, Object> pillar = compiler.compile(new PillarCompiler.Request("m", Map.of(), null, null,
                Map.of("a", Map.of("y", 3))));
        assertThat(pillar).containsEntry("a", Map.of("x", 1, "y", 3));
        assertThat((List<?>) pillar.get("_errors")).singleElement().asString().contains("../../../etc/passwd");
    }

    @Test
    void noPillarRootsGiveAnEmptyPillar() {
        assertThat(pillarOf("m", Map.of("os", "Debian"))).isEmpty();
    }
}
