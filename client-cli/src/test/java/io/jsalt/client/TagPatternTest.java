package io.jsalt.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TagPatternTest {
    @Test
    void aPrefixMatchesTagsThatStartWithIt() {
        assertThat(TagPattern.prefix("salt/job/").matches("salt/job/1/new")).isTrue();
        assertThat(TagPattern.prefix("salt/job/").matches("salt/auth")).isFalse();
        assertThat(TagPattern.prefix("").matches("anything")).isTrue();
    }

    @Test
    void aGlobMatchesTheWholeTagAsFnmatch() {
        TagPattern p = TagPattern.glob("salt/job/*/ret/web-0[12]");
        assertThat(p.matches("salt/job/20261122091520123456/ret/web-01")).isTrue();
        assertThat(p.matches("salt/job/20261122091520123456/ret/web-03")).isFalse();
        assertThat(p.matches("x/salt/job/1/ret/web-01")).isFalse();
    }

    @Test
    void aRegexMatchesFromTheStartOfTheTagAsSaltsReMatchAndABadOneIsRefusedWithItsText() {
        assertThat(TagPattern.regex("salt/job/\\d+/ret/web-\\d+$").matches("salt/job/1/ret/web-12")).isTrue();
        assertThat(TagPattern.regex("salt/job/").matches("salt/job/1/ret/web-12")).as("not anchored at the end").isTrue();
        assertThat(TagPattern.regex("salt/job/.*/ret/m2").matches("jsalt/salt/job/1/ret/m2")).as("a minion's look-alike tag").isFalse();
        assertThat(TagPattern.regex("ret/web-\\d+$").matches("salt/job/1/ret/web-12")).isFalse();
        assertThat(TagPattern.any().matches("")).isTrue();
        assertThatThrownBy(() -> TagPattern.regex("salt/(")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad regular expression 'salt/('");
    }
}
