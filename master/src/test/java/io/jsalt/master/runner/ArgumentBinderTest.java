package io.jsalt.master.runner;

import static io.jsalt.master.runner.Parameter.optional;
import static io.jsalt.master.runner.Parameter.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.master.runner.Parameter.Type;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArgumentBinderTest {
    static final RunnerSignature LOOKUP = RunnerSignature.of("jobs.lookup_jid", required("jid", Type.STRING),
            optional("missing", Type.BOOLEAN, false));
    static final RunnerSignature LIST = RunnerSignature.of("jobs.list_jobs", optional("search_function", Type.STRINGS, null),
            optional("timeout", Type.INTEGER, null), optional("tgt_type", Type.STRING, "glob"));

    @Test
    void printsTheSignatureAsPythonWould() {
        assertThat(LOOKUP).hasToString("jobs.lookup_jid(jid, missing=False)");
        assertThat(LIST).hasToString("jobs.list_jobs(search_function=None, timeout=None, tgt_type='glob')");
        assertThat(RunnerSignature.of("jobs.active")).hasToString("jobs.active()");
    }

    @Test
    void positionalValuesFillTheParametersInOrderAndTheRestTakeTheirDefaults() {
        RunnerArgs args = ArgumentBinder.bind(LOOKUP, List.of("20260101120000000001"), Map.of());

        assertThat(args.string("jid")).isEqualTo("20260101120000000001");
        assertThat(args.bool("missing")).isFalse();
    }

    @Test
    void keywordsComeFromKwargFromKwargMarkedMapsAndFromNameEqualsValueStrings() {
        Map<String, Object> marked = new LinkedHashMap<>();
        marked.put("__kwarg__", true);
        marked.put("missing", true);

        assertThat(ArgumentBinder.bind(LOOKUP, List.of(), Map.of("jid", "1", "missing", true)).bool("missing")).isTrue();
        assertThat(ArgumentBinder.bind(LOOKUP, List.of("1", marked), Map.of()).bool("missing")).isTrue();
        assertThat(ArgumentBinder.bind(LOOKUP, List.of("1", "missing=True"), Map.of()).bool("missing")).isTrue();
        assertThat(ArgumentBinder.bind(LOOKUP, List.of("jid=7", "missing=no"), Map.of()).string("jid")).isEqualTo("7");
    }

    @Test
    void dropsSaltsPublishMetadataFromKwarg() {
        RunnerArgs args = ArgumentBinder.bind(LOOKUP, List.of("1"), Map.of("__pub_user", "root", "__kwarg__", true));

        assertThat(args.asMap()).containsOnlyKeys("jid", "missing");
    }

    @Test
    void aJidSentAsANumberIsTakenAsItsText() {
        assertThat(ArgumentBinder.bind(LOOKUP, List.of(new BigInteger("20260101120000000001")), Map.of()).string("jid"))
                .isEqualTo("20260101120000000001");
        assertThat(ArgumentBinder.bind(LOOKUP, List.of(42L), Map.of()).string("jid")).isEqualTo("42");
    }

    @Test
    void valuesAreReadForTheParametersType() {
        RunnerArgs args = ArgumentBinder.bind(LIST, List.of("test.*, cmd.run", "5"), Map.of());

        assertThat(args.strings("search_function")).containsExactly("test.*", "cmd.run");
        assertThat(args.integer("timeout")).isEqualTo(5);
        assertThat(ArgumentBinder.bind(LIST, List.of(List.of("a", "b")), Map.of()).strings("search_function"))
                .containsExactly("a", "b");
        assertThat(ArgumentBinder.bind(LIST, List.of(), Map.of("timeout", 7L)).integer("timeout")).isEqualTo(7);
    }

    @Test
    void noneForAnOptionalParameterMeansItsDefault() {
        Map<String, Object> kwarg = new LinkedHashMap<>();
        kwarg.put("tgt_type", null);
        kwarg.put("timeout", "None");

        RunnerArgs args = ArgumentBinder.bind(LIST, List.of(), kwarg);

        assertThat(args.string("tgt_type")).isEqualTo("glob");
        assertThat(args.integer("timeout")).isNull();
    }

    @Test
    void refusesAnUnknownKeywordWithSaltsWording() {
        assertThatThrownBy(() -> ArgumentBinder.bind(LOOKUP, List.of("1", "colour=red"), Map.of("size", 3L)))
                .isInstanceOf(InvalidRunnerArgumentsException.class)
                .hasMessage("The following keyword arguments are not valid: colour=red, size=3");
    }

    @Test
    void refusesAMissingRequiredArgument() {
        assertThatThrownBy(() -> ArgumentBinder.bind(LOOKUP, List.of(), Map.of("missing", true)))
                .hasMessage("missing required argument 'jid'");
    }

    @Test
    void refusesTooManyPositionalValues() {
        assertThatThrownBy(() -> ArgumentBinder.bind(LOOKUP, List.of("1", true, "x"), Map.of()))
                .hasMessage("takes at most 2 arguments (3 given)");
        assertThatThrownBy(() -> ArgumentBinder.bind(RunnerSignature.of("jobs.active"), List.of("x"), Map.of()))
                .hasMessage("takes at most 0 arguments (1 given)");
    }

    @Test
    void refusesAParameterGivenTwice() {
        assertThatThrownBy(() -> ArgumentBinder.bind(LOOKUP, List.of("1"), Map.of("jid", "2")))
                .hasMessage("got multiple values for argument 'jid'");
    }

    @Test
    void refusesAValueOfTheWrongKind() {
        assertThatThrownBy(() -> ArgumentBinder.bind(LOOKUP, List.of("1", "missing=maybe"), Map.of()))
                .hasMessage("argument 'missing' must be True or False, not 'maybe'");
        assertThatThrownBy(() -> ArgumentBinder.bind(LOOKUP, List.of(List.of("1")), Map.of()))
                .hasMessage("argument 'jid' must be a string, not a list");
        assertThatThrownBy(() -> ArgumentBinder.bind(LIST, List.of(), Map.of("timeout", "soon")))
                .hasMessage("argument 'timeout' must be a whole number, not 'soon'");
        assertThatThrownBy(() -> ArgumentBinder.bind(LIST, List.of(), Map.of("timeout", 1L << 40)))
                .isInstanceOf(InvalidRunnerArgumentsException.class);
    }

    @Test
    void aStringThatOnlyLooksLikeAKeywordStaysPositional() {
        RunnerSignature preview = RunnerSignature.of("target.preview", required("tgt", Type.TARGET),
                optional("tgt_type", Type.STRING, "glob"));

        assertThat(ArgumentBinder.bind(preview, List.of("G@os:Debian and web*"), Map.of()).value("tgt"))
                .isEqualTo("G@os:Debian and web*");
        assertThat(ArgumentBinder.bind(preview, List.of("a==b"), Map.of()).value("tgt")).isEqualTo("a==b");
    }
}
