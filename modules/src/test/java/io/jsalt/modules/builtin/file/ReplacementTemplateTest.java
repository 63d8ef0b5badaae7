package io.jsalt.modules.builtin.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReplacementTemplateTest {

    private static String expand(String regex, String repl, String text, boolean literal) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).isTrue();
        return ReplacementTemplate.parse(repl, literal).expand(matcher);
    }

    @Test
    void pythonGroupReferencesAndEscapesExpandLikeReSub() {
        // re.sub(r'(\w+)=(\w+)', r'\2=\1\t\\\\ \g<1>$', 'k=v') == 'v=k\t\\ k$'
        assertThat(expand("(\\w+)=(\\w+)", "\\2=\\1\\t\\\\ \\g<1>$", "k=v", false)).isEqualTo("v=k\t\\ k$");
    }

    @Test
    void namedGroupsWorkWithPythonSyntax() {
        Matcher matcher = PythonRegex.compile("(?P<key>\\w+)=(?P=key)", 0).matcher("a=a");
        assertThat(matcher.find()).isTrue();
        assertThat(ReplacementTemplate.parse("[\\g<key>]", false).expand(matcher)).isEqualTo("[a]");
    }

    @Test
    void backslashLiteralTakesTheReplacementAsIs() {
        assertThat(expand("x", "\\1$1", "x", true)).isEqualTo("\\1$1");
    }

    @Test
    void aReferenceToAMissingGroupIsAClearError() {
        assertThatThrownBy(() -> expand("x", "\\3", "x", false)).isInstanceOf(CommandExecutionException.class)
                .hasMessageContaining("no group 3");
    }

    @Test
    void flagsAreReadAsPythonIntsOrNames() {
        assertThat(PythonRegex.pythonFlags(8)).isEqualTo(8);
        assertThat(PythonRegex.pythonFlags("10")).isEqualTo(10);
        assertThat(PythonRegex.pythonFlags(List.of("IGNORECASE", "dotall"))).isEqualTo(18);
        assertThat(PythonRegex.compile("^B", List.of("I", "M")).matcher("a\nb").find()).isTrue();
        assertThatThrownBy(() -> PythonRegex.pythonFlags("SHOUTY")).hasMessageContaining("Invalid regex flag");
    }
}
