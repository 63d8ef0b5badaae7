package io.jsalt.modules.binding;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeywordStringTest {

    @Test
    void parsesSaltsKeyValueForm() {
        assertThat(KeywordString.parse("two=2")).contains(new KeywordString("two", 2L));
        assertThat(KeywordString.parse("txt=hello world")).contains(new KeywordString("txt", "hello world"));
        assertThat(KeywordString.parse("a.b-c=x")).contains(new KeywordString("a.b-c", "x"));
        assertThat(KeywordString.parse("empty=")).contains(new KeywordString("empty", ""));
    }

    @Test
    void leavesOtherStringsAlone() {
        assertThat(KeywordString.parse("echo a=b")).isEmpty();
        assertThat(KeywordString.parse("1x=2")).isEmpty();
        assertThat(KeywordString.parse("a==b")).isEmpty();
        assertThat(KeywordString.parse("=b")).isEmpty();
        assertThat(KeywordString.parse("plain")).isEmpty();
    }

    @Test
    void readsValuesAsYamlScalars() {
        assertThat(KeywordString.scalar("yes")).isEqualTo(true);
        assertThat(KeywordString.scalar("Off")).isEqualTo(false);
        assertThat(KeywordString.scalar("~")).isNull();
        assertThat(KeywordString.scalar("null")).isNull();
        assertThat(KeywordString.scalar("-12")).isEqualTo(-12L);
        assertThat(KeywordString.scalar("1.5e3")).isEqualTo(1500.0d);
        assertThat(KeywordString.scalar("0123")).isEqualTo("0123");
        assertThat(KeywordString.scalar("99999999999999999999")).isEqualTo("99999999999999999999");
        assertThat(KeywordString.scalar("tRuE")).isEqualTo("tRuE");
    }
}
