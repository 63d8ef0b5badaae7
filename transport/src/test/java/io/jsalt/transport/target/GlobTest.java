package io.jsalt.transport.target;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Shell patterns with the results of Python's {@code fnmatch.fnmatch(name, pattern)} on Linux (Salt's
 * glob matcher), case-sensitive, where {@code *} crosses dots and slashes.
 */
class GlobTest {

    @ParameterizedTest(name = "fnmatch({1}, {0}) is {2}")
    @CsvSource(delimiterString = " | ", value = {
        // star
        "*          | web1             | true",
        "*          | ''               | true",
        "*          | a.b.c            | true",
        "web*       | web              | true",
        "web*       | web1.example.com | true",
        "web*       | aweb1            | false",
        "*.com      | web1.example.com | true",
        "*.com      | web1.example.org | false",
        "w*1        | web1             | true",
        "w*1        | web12            | false",
        "a*b*c      | axxbyyc          | true",
        "a*b*c      | axxbyy           | false",
        "**a**b**   | xaxbx            | true",
        "*a*a*b     | aab              | true",
        "*a*a*b     | aba              | false",
        "*ab*ab     | xabyab           | true",
        "*ab*ab     | xabab            | true",
        "*ab*ab     | xaab             | false",
        "a*?*b      | ab               | false",
        "a*?*b      | axb              | true",
        "*[ab]*c    | xbyc             | true",
        "[*]*       | *x               | true",
        "[*]*       | x*               | false",
        // question mark: exactly one character
        "web?       | web1             | true",
        "web?       | web              | false",
        "web?       | web10            | false",
        "??         | ab               | true",
        "web?       | web.             | true",
        // classes
        "web[abc]   | webb             | true",
        "web[abc]   | webd             | false",
        "web[!abc]  | webd             | true",
        "web[!abc]  | weba             | false",
        "web[a-c]   | webb             | true",
        "web[a-c]   | webd             | false",
        "web[0-9]*  | web7.lan         | true",
        "web[0-9]*  | webx.lan         | false",
        "[]]        | ]                | true",
        "[!]]       | ]                | false",
        "[!]]       | a                | true",
        "[[]        | [                | true",
        "[^a]       | ^                | true",
        "[^a]       | a                | true",
        "[^a]       | b                | false",
        "[a&&b]     | &                | true",
        "[a&&b]     | a                | true",
        "[a&&b]     | c                | false",
        "[\\d]      | \\               | true",
        "[\\d]      | 1                | false",
        // ranges: a '-' after a range is literal; a reversed range matches nothing (Python 3.9+), never an error
        "[a-c-e]    | -                | true",
        "[a-c-e]    | e                | true",
        "[a-c-e]    | d                | false",
        "[a-]       | -                | true",
        "[--0]      | .                | true",
        "[z-a]      | a                | false",
        "[z-a]      | z                | false",
        "web[z-a]1  | web1             | false",
        "[!z-a]     | b                | true",
        // an unmatched '[' is a literal
        "web[       | web[             | true",
        "web[1      | web[1            | true",
        "web[1      | web1             | false",
        "[!         | [!               | true",
        // dots and regex metacharacters are literal
        "web.lan    | web.lan          | true",
        "web.lan    | webXlan          | false",
        "a+b        | a+b              | true",
        "a+b        | aab              | false",
        "(a|b)      | (a|b)            | true",
        "(a|b)      | a                | false",
        "a$         | a$               | true",
        "^a         | ^a               | true",
        "a{2}       | aa               | false",
        "\\Qa\\E    | \\Qa\\E          | true",
        // case-sensitive, whole-name
        "WEB*       | web1             | false",
        "web1       | web1             | true",
        "web1       | web1x            | false",
        "web1       | xweb1            | false",
    })
    void matchesAsPythonFnmatchDoes(String pattern, String name, boolean expected) {
        assertThat(Glob.compile(pattern).matcher(name).matches()).isEqualTo(expected);
    }

    /**
     * A glob with many stars against a long name that almost matches: a plain {@code .*a.*a...} translation
     * backtracks over every split of the name (minutes; fuzzing found it); the translation in atomic groups
     * answers at once. The bound only turns such a regression into a failure instead of a hung build.
     */
    @Test
    @Timeout(60)
    void manyStarsAgainstALongNameDoNotBacktrackForEver() {
        String glob = "*a".repeat(40) + "*b";
        assertThat(Glob.compile(glob).matcher("a".repeat(200)).matches()).isFalse();
        assertThat(Glob.compile(glob).matcher("a".repeat(200) + "b").matches()).isTrue();
    }

    /** Classes are of code points, as Python's str: a range may end in a character outside the BMP. */
    @Test
    void aClassRangeWithACharacterOutsideTheBasicPlaneIsOfCodePoints() {
        String high = new String(Character.toChars(0x1F600)); // an emoji: two chars in Java
        assertThat(Glob.compile("[a-" + high + "]").matcher(high).matches()).isTrue();
        assertThat(Glob.compile("[" + high + "-a]x").matcher("x").matches()).as("reversed: matches nothing").isFalse();
        assertThat(Glob.compile("x[" + high + "]").matcher("x" + high).matches()).isTrue();
        assertThat(Glob.compile(high + "*").matcher(high + "1").matches()).isTrue();
    }
}
