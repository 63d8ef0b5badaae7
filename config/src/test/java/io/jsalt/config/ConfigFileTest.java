package io.jsalt.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;

class ConfigFileTest {
    @TempDir
    Path dir;

    private ConfigFile yaml(String text) throws IOException {
        Path file = dir.resolve("master");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return ConfigFile.load(file);
    }

    @Test
    void missingFileIsAnEmptyConfig() {
        ConfigFile config = ConfigFile.load(dir.resolve("absent"));
        assertThat(config.keys()).isEmpty();
        assertThat(config.integer("publish_port", 4505, 1, 65535)).isEqualTo(4505);
    }

    @Test
    void emptyAndCommentOnlyFilesAreEmptyConfigs() throws IOException {
        assertThat(yaml("").keys()).isEmpty();
        assertThat(yaml("# all defaults\n\n#interface: 0.0.0.0\n").keys()).isEmpty();
    }

    @Test
    void syntaxErrorNamesTheFileAndTheLine() throws IOException {
        Path file = dir.resolve("master");
        Files.writeString(file, "interface: 0.0.0.0\npublish_port: 4505\n  ret_port: 4506\n");
        assertThatThrownBy(() -> ConfigFile.load(file))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(file + ": line 3")
                .hasMessageContaining("YAML syntax error")
                .satisfies(e -> assertThat(((ConfigException) e).line()).hasValue(3));
    }

    @Test
    void unclosedQuoteIsASyntaxErrorNamingTheFile() throws IOException {
        assertThatThrownBy(() -> yaml("master: \"salt\nid: m1\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(dir.resolve("master") + ": line ");
    }

    @Test
    void topLevelListIsRefused() throws IOException {
        assertThatThrownBy(() -> yaml("- interface\n- publish_port\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("master") + ": expected a mapping of keys to values at the top level, got a list");
    }

    @Test
    void topLevelScalarIsRefused() throws IOException {
        assertThatThrownBy(() -> yaml("just words\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("expected a mapping of keys to values at the top level, got \"just words\"");
    }

    @Test
    void duplicateKeyIsRefusedRatherThanSilentlyShadowed() throws IOException {
        assertThatThrownBy(() -> yaml("publish_port: 4505\npublish_port: 5505\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("line 2")
                .hasMessageContaining("duplicate key publish_port");
    }

    @Test
    void pythonObjectTagIsRefusedNotObeyed() throws IOException {
        assertThatThrownBy(() -> yaml("id: !!python/object/apply:os.system [\"touch /tmp/pwned\"]\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(dir.resolve("master").toString());
    }

    @Test
    void aliasThatContainsItselfIsRefusedNamingTheKey() throws IOException {
        assertThatThrownBy(() -> yaml("grains: &g\n  self: *g\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("master") + ": grains: a value that contains itself through an alias");
    }

    @Test
    void aliasSharedBetweenKeysIsAccepted() throws IOException {
        ConfigFile config = yaml("base: &b [web, db]\nroles: *b\n");
        assertThat(config.stringList("roles")).containsExactly("web", "db");
    }

    @Test
    void aliasBombIsRefused() throws IOException {
        StringBuilder bomb = new StringBuilder("a0: &a0 [x, x, x]\n");
        for (int i = 1; i < 10; i++) {
            String previous = "*a" + (i - 1);
            bomb.append("a").append(i).append(": &a").append(i)
                    .append(" [").append(previous).append(", ").append(previous).append(", ").append(previous)
                    .append("]\n");
        }
        assertThatThrownBy(() -> yaml(bomb.toString()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("aliases");
    }

    @Test
    void runawayNestingIsRefusedWithoutCrashing() throws IOException {
        assertThatThrownBy(() -> yaml("a: " + "[".repeat(200_000) + "]".repeat(200_000) + "\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("master") + ": not valid YAML: nested too deeply");
    }

    @Test
    void fileThatIsNotUtf8IsRefused() throws IOException {
        Path file = dir.resolve("master");
        Files.write(file, new byte[] {'i', 'd', ':', ' ', (byte) 0xff, (byte) 0xfe, '\n'});
        assertThatThrownBy(() -> ConfigFile.load(file))
                .hasMessage(file + ": not UTF-8 text: a config file must be UTF-8");
    }

    @Test
    void nonStringTopLevelKeyIsRefused() throws IOException {
        assertThatThrownBy(() -> yaml("4505: publish_port\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("master") + ": 4505: expected a key that is a string, got 4505");
    }

    @Test
    void directoryInsteadOfAFileIsUnreadable() throws IOException {
        Path file = Files.createDirectory(dir.resolve("master"));
        assertThatThrownBy(() -> ConfigFile.load(file))
                .isInstanceOf(ConfigException.class)
                .hasMessage(file + ": cannot read the file: Is a directory");
    }

    @Test
    void wrongTypeMessageNamesFileKeyAndExpectedForm() throws IOException {
        ConfigFile config = yaml("publish_port: abc\n");
        assertThatThrownBy(() -> config.integer("publish_port", 4505, 1, 65535))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("master") + ": publish_port: expected an integer 1..65535, got \"abc\"")
                .satisfies(e -> assertThat(((ConfigException) e).key()).hasValue("publish_port"));
    }

    @Test
    void integerOutsideItsRangeIsRefused() throws IOException {
        ConfigFile config = yaml("a: 0\nb: 65536\nc: 99999999999999999999999\nd: 4505.0\ne: true\n");
        for (String key : List.of("a", "b", "c", "d", "e")) {
            assertThatThrownBy(() -> config.integer(key, 1, 1, 65535))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(": " + key + ": expected an integer 1..65535, got ");
        }
    }

    @Test
    void integerWithoutUpperBoundSaysSo() throws IOException {
        ConfigFile config = yaml("max_minions: -1\n");
        assertThatThrownBy(() -> config.integer("max_minions", 0, 0, Integer.MAX_VALUE))
                .hasMessageEndingWith("max_minions: expected an integer >= 0, got -1");
    }

    @Test
    void numberAcceptsIntegersAndFloats() throws IOException {
        ConfigFile config = yaml("a: 3\nb: 0.25\n");
        assertThat(config.number("a", 1, 0, 10)).isEqualTo(3.0);
        assertThat(config.number("b", 1, 0, 10)).isEqualTo(0.25);
        assertThat(config.number("c", 1.5, 0, 10)).isEqualTo(1.5);
    }

    @Test
    void numberRefusesNanInfinityStringsAndOutOfRange() throws IOException {
        ConfigFile config = yaml("a: .nan\nb: .inf\nc: \"3\"\nd: 10.5\n");
        for (String key : List.of("a", "b", "c", "d")) {
            assertThatThrownBy(() -> config.number(key, 1, 0, 10))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(": " + key + ": expected a number 0..10, got ");
        }
    }

    @Test
    void positiveNumberRefusesZero() throws IOException {
        ConfigFile config = yaml("acceptance_wait_time: 0\n");
        assertThatThrownBy(() -> config.positiveNumber("acceptance_wait_time", 10, 86400))
                .hasMessageEndingWith("acceptance_wait_time: expected a number > 0 and <= 86400, got 0");
    }

    @Test
    void booleansAcceptYamlBooleansAndSaltsYesNoOnOff() throws IOException {
        ConfigFile config = yaml("a: true\nb: False\nc: yes\nd: No\ne: on\nf: OFF\n");
        assertThat(config.bool("a", false)).isTrue();
        assertThat(config.bool("b", true)).isFalse();
        assertThat(config.bool("c", false)).isTrue();
        assertThat(config.bool("d", true)).isFalse();
        assertThat(config.bool("e", false)).isTrue();
        assertThat(config.bool("f", true)).isFalse();
        assertThat(config.bool("absent", true)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "0", "maybe", "y", "[true]", "enabled"})
    void booleanRefusesAnythingElse(String written) throws IOException {
        ConfigFile config = yaml("auto_accept: " + written + "\n");
        assertThatThrownBy(() -> config.bool("auto_accept", false))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("auto_accept: expected true or false (yes/no accepted), got ");
    }

    @Test
    void stringRefusesNumbersAndAsksForQuotes() throws IOException {
        ConfigFile config = yaml("id: 001\nmaster: [a, b]\n");
        assertThatThrownBy(() -> config.string("id", "x"))
                .hasMessageEndingWith("id: expected a string (quote it), got 1");
        assertThatThrownBy(() -> config.string("master", "x"))
                .hasMessageEndingWith("master: expected a string, got a list");
    }

    @Test
    void keyWithoutValueGivesTheDefault() throws IOException {
        ConfigFile config = yaml("interface:\npublish_port:\n");
        assertThat(config.string("interface", "0.0.0.0")).isEqualTo("0.0.0.0");
        assertThat(config.integer("publish_port", 4505, 1, 65535)).isEqualTo(4505);
        assertThat(config.unknownKeys()).isEmpty();
    }

    @Test
    void singleStringIsAOneElementList() throws IOException {
        ConfigFile config = yaml("one: web\nmany: [web, db]\nbad: [web, 3]\n");
        assertThat(config.stringList("one")).containsExactly("web");
        assertThat(config.stringList("many")).containsExactly("web", "db");
        assertThat(config.stringList("absent")).isEmpty();
        assertThatThrownBy(() -> config.stringList("bad"))
                .hasMessageEndingWith("bad: expected a string or a list of strings, got a list");
    }

    @Test
    void mapKeepsNestedValuesAndIsUnmodifiable() throws IOException {
        ConfigFile config = yaml("grains:\n  roles: [web, db]\n  rack: 7\n  empty:\nbad: [1]\nnumeric_keys: {1: a}\n");
        Map<String, Object> grains = config.map("grains");
        assertThat(grains).containsEntry("roles", List.of("web", "db")).containsEntry("rack", 7).containsKey("empty");
        assertThatThrownBy(() -> grains.put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<?>) grains.get("roles")).clear())
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(config.map("absent")).isEmpty();
        assertThatThrownBy(() -> config.map("bad")).hasMessageEndingWith("bad: expected a mapping with string keys, got a list");
        assertThatThrownBy(() -> config.map("numeric_keys")).hasMessageContaining("numeric_keys: expected a mapping");
    }

    @Test
    void unknownKeysAreThosePresentButNeverRead() throws IOException {
        ConfigFile config = yaml("interface: 0.0.0.0\nfile_roots: {base: [/srv/salt]}\npublish_port: 4505\nfoo: 1\n");
        config.string("interface", "x");
        config.integer("publish_port", 1, 1, 65535);
        config.bool("never_written", false);
        assertThat(config.unknownKeys()).containsExactly("file_roots", "foo");
    }

    @Test
    void eachUnknownKeyIsWarnedAboutOnce() throws IOException {
        ConfigFile config = yaml("interface: 0.0.0.0\nfoo: 1\nbar: 2\n");
        config.string("interface", "x");
        List<String> warnings = new ArrayList<>();
        Logger logger = (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(), new Class<?>[] {Logger.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("warn")) {
                        warnings.add(args[0] + " " + args[1] + " " + args[2]);
                    }
                    return method.getReturnType() == boolean.class ? Boolean.TRUE : null;
                });
        config.warnUnknownKeys(logger);
        Path file = dir.resolve("master");
        assertThat(warnings).containsExactly(
                "unknown configuration key '{}' in {}: ignored foo " + file,
                "unknown configuration key '{}' in {}: ignored bar " + file);
    }

    @Test
    void longValuesAreCutInMessages() throws IOException {
        ConfigFile config = yaml("publish_port: " + "x".repeat(500) + "\n");
        assertThatThrownBy(() -> config.integer("publish_port", 4505, 1, 65535))
                .hasMessageEndingWith("got \"" + "x".repeat(80) + "...\"");
    }

    @Test
    void configBuiltInCodeNamesItsLabel() {
        ConfigFile config = ConfigFile.of(Path.of("<test>"), Map.of("timeout", "soon"));
        assertThatThrownBy(() -> config.integer("timeout", 5, 1, 86400))
                .hasMessage("<test>: timeout: expected an integer 1..86400, got \"soon\"");
    }
}
