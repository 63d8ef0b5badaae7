package io.jsalt.modules.builtin.cmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CommandLineTest {

    @Test
    void splitsOnWhitespace() {
        assertThat(CommandLine.split("  ls   -l\t/var \n")).containsExactly("ls", "-l", "/var");
        assertThat(CommandLine.split("")).isEmpty();
    }

    @Test
    void singleQuotesKeepEverythingLiterally() {
        assertThat(CommandLine.split("echo 'a  b' '$HOME \\n \"x\"'")).containsExactly("echo", "a  b", "$HOME \\n \"x\"");
    }

    @Test
    void doubleQuotesLetBackslashEscapeOnlyQuoteAndBackslash() {
        assertThat(CommandLine.split("echo \"a \\\"b\\\" \\\\ \\n\"")).containsExactly("echo", "a \"b\" \\ \\n");
    }

    @Test
    void backslashOutsideQuotesEscapesAnyCharacter() {
        assertThat(CommandLine.split("touch a\\ b c\\'d \\\\")).containsExactly("touch", "a b", "c'd", "\\");
    }

    @Test
    void adjacentPartsJoinIntoOneWord() {
        assertThat(CommandLine.split("a\"b c\"d'e f'g")).containsExactly("ab cde fg");
    }

    @Test
    void emptyQuotesAreAnEmptyArgument() {
        assertThat(CommandLine.split("printf '' \"\" x")).containsExactly("printf", "", "", "x");
    }

    @Test
    void shellOperatorsAreOrdinaryWords() {
        assertThat(CommandLine.split("echo a | wc > f; #c")).containsExactly("echo", "a", "|", "wc", ">", "f;", "#c");
    }

    @Test
    void refusesUnclosedQuotesAndATrailingBackslash() {
        assertThatThrownBy(() -> CommandLine.split("echo 'a")).hasMessage("No closing quotation");
        assertThatThrownBy(() -> CommandLine.split("echo \"a")).hasMessage("No closing quotation");
        assertThatThrownBy(() -> CommandLine.split("echo \"a\\\"")).hasMessage("No closing quotation");
        assertThatThrownBy(() -> CommandLine.split("echo a\\")).hasMessage("No escaped character");
    }

    @Test
    void quoteMakesAnyWordOneWordAgainAsShlexQuoteDoes() {
        for (String word : java.util.List.of("plain", "a b", "it's", "$HOME", "", "x\"y", "tab\tand\nnewline", "é")) {
            assertThat(CommandLine.split(CommandLine.quote(word))).containsExactly(word);
        }
        assertThat(CommandLine.quote("/tmp/a-b_c.sh")).isEqualTo("/tmp/a-b_c.sh");
        assertThat(CommandLine.quote("it's")).isEqualTo("'it'\"'\"'s'");
    }
}
