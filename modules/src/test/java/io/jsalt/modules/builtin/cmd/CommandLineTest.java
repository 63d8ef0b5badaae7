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
}
