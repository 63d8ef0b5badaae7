package io.jsalt.cli.jsalt;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.codec.SaltPack;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Command-line words to Salt's {@code arg} list, checked against salt.utils.args.parse_input / yamlify_arg. */
class ArgParserTest {

    private static List<Object> parse(String... words) {
        return ArgParser.parse(Arrays.asList(words));
    }

    /** As the value travels: through Salt's msgpack, so 1 (int) and 1 (long) are the same argument. */
    private static Object onTheWire(Object value) {
        return SaltPack.unpack(SaltPack.pack(value));
    }

    private static Object single(String word) {
        List<Object> args = parse(word);
        assertThat(args).hasSize(1);
        return args.get(0);
    }

    @Test
    void positionalAndKeywordWordsGiveTheArgOfSaltsCapturedTestArg() {
        Map<String, Object> described = SaltVectors.json("frames/run1-auto-accept/019-master-to-minion-publish-test.arg.json");
        @SuppressWarnings("unchecked")
        Map<String, Object> load = (Map<String, Object>) ((Map<String, Object>) described.get("load_crypticle")).get("decoded");

        List<Object> args = parse("1", "two=2");

        assertThat(onTheWire(args)).isEqualTo(onTheWire(load.get("arg")));
        assertThat(args.get(0)).isEqualTo(1L);
        assertThat(args.get(1)).isInstanceOf(Map.class);
        assertThat(new ArrayList<Object>(((Map<?, ?>) args.get(1)).keySet())).as("__kwarg__ first, as Salt packs it")
                .containsExactly("__kwarg__", "two");
    }

    @Test
    void keywordArgumentsGoIntoOneTrailingMapWhateverTheirPosition() {
        List<Object> args = parse("a=1", "x", "b=two", "y");

        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("__kwarg__", true);
        kwargs.put("a", 1L);
        kwargs.put("b", "two");
        assertThat(onTheWire(args)).isEqualTo(onTheWire(List.of("x", "y", kwargs)));
    }

    @Test
    void noKeywordsMeansNoKwargMap() {
        assertThat(parse("x", "y")).containsExactly("x", "y");
        assertThat(parse()).isEmpty();
    }

    @Test
    void aCommandLineWithSpacesStaysOneString() {
        assertThat(single("uname -a")).isEqualTo("uname -a");
    }

    @Test
    void aDoubleEqualsIsNotAKeyword() {
        assertThat(single("a==b")).isEqualTo("a==b");
    }

    @Test
    void aWordWithSpaceBeforeTheEqualsIsNotAKeyword() {
        assertThat(single("echo a=b")).isEqualTo("echo a=b");
    }

    @Test
    void aKeyStartingWithADigitIsNotAKeyword() {
        assertThat(single("1a=b")).isEqualTo("1a=b");
    }

    @Test
    void keywordNamesMayHoldDotsAndDashes() {
        List<Object> args = parse("saltenv.x-y=base");

        assertThat(args.get(0)).isEqualTo(Map.of("__kwarg__", true, "saltenv.x-y", "base"));
    }

    @Test
    void aKeywordValueKeepsEverythingAfterTheFirstEquals() {
        List<Object> args = parse("cmd=echo a=b");

        assertThat(args.get(0)).isEqualTo(Map.of("__kwarg__", true, "cmd", "echo a=b"));
    }

    @Test
    void keywordValuesAreTypedToo() {
        List<Object> args = parse("n=3", "on=true", "nothing=None");

        assertThat(onTheWire(args.get(0))).isEqualTo(onTheWire(mapOf("__kwarg__", true, "n", 3L, "on", true, "nothing", null)));
    }

    @Test
    void integersAreLongs() {
        assertThat(single("42")).isEqualTo(42L);
        assertThat(single("-7")).isEqualTo(-7L);
    }

    @Test
    void trueAndFalseAreBooleans() {
        assertThat(single("true")).isEqualTo(Boolean.TRUE);
        assertThat(single("True")).isEqualTo(Boolean.TRUE);
        assertThat(single("false")).isEqualTo(Boolean.FALSE);
    }

    @Test
    void decimalsAreDoubles() {
        assertThat(single("3.5")).isEqualTo(3.5d);
    }

    @Test
    void aBracketedListIsAList() {
        assertThat(onTheWire(single("[1, 2]"))).isEqualTo(List.of(1L, 2L));
    }

    @Test
    void aBracedMapIsAMap() {
        assertThat(onTheWire(single("{a: 1}"))).isEqualTo(Map.of("a", 1L));
    }

    @ParameterizedTest
    @ValueSource(strings = {"None", "null", "~"})
    void noneAndNullAreNull(String word) {
        assertThat(single(word)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "---", "1_000", "#comment", "*", "&anchor", "!tag", "|", "@at", "%pct", "`tick`", "two\nlines"})
    void wordsYamlWouldMangleStayAsTyped(String word) {
        assertThat(single(word)).isEqualTo(word);
    }

    @Test
    void plainTextStaysText() {
        assertThat(single("hello")).isEqualTo("hello");
        assertThat(single("/etc/hosts")).isEqualTo("/etc/hosts");
    }

    @Test
    void quotesAroundTextAreYamlQuotesAsInSalt() {
        // yamlify_arg returns yaml.safe_load's string: the quotes go, the text stays
        assertThat(single("'quoted'")).isEqualTo("quoted");
    }

    @Test
    void aNumberQuotedTwiceIsSentAsText() {
        // Salt's documented way to pass the string "1": salt '*' test.echo "'1'"
        assertThat(single("'1'")).isEqualTo("1");
    }

    @Test
    void aMapWithoutBracesStaysText() {
        // yamlify_arg: "dicts must be wrapped in curly braces", so test.echo "Hello: world" echoes the text
        assertThat(single("Hello: world")).isEqualTo("Hello: world");
    }

    @Test
    void aListWithoutBracketsStaysText() {
        // yamlify_arg: "lists must be wrapped in brackets"
        assertThat(single("- a")).isEqualTo("- a");
    }

    private static Map<String, Object> mapOf(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
