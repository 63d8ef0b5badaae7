package io.jsalt.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Salt's nested colours (salt/output/nested.py with salt/utils/color.py), and when they are used at all. */
class ColoredNestedOutputTest {
    private static final String CYAN = "\u001b[0;36m";
    private static final String GREEN = "\u001b[0;32m";
    private static final String RED = "\u001b[0;31m";
    private static final String BOLD_YELLOW = "\u001b[0;1;33m";
    private static final String END = "\u001b[0;0m";

    private static String print(Consumer<PrintStream> body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            body.accept(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private final NestedOutputter colored = new NestedOutputter(Palette.SALT);

    @Test
    void theMinionIdIsCyanAndABooleanBoldYellow() {
        assertThat(print(out -> colored.one(out, "node-01", true)))
                .isEqualTo(CYAN + "node-01" + END + ":\n    " + BOLD_YELLOW + "True" + END + "\n");
    }

    @Test
    void textIsGreenLineByLine() {
        assertThat(print(out -> colored.one(out, "m", "a\nb")))
                .isEqualTo(CYAN + "m" + END + ":\n    " + GREEN + "a" + END + "\n    " + GREEN + "b" + END + "\n");
    }

    @Test
    void aReturnWithANonZeroRetcodeHasItsKeysSeparatorsAndListMarksInRed() {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("pid", 7L);
        ret.put("rows", List.of(List.of(1L)));
        String printed = print(out -> colored.one(out, "m", Map.of("x", ret), 1));

        assertThat(printed).startsWith(RED + "m" + END + ":\n")
                .contains("    " + RED + "----------" + END + "\n")
                .contains("    " + RED + "x" + END + ":\n")
                .contains("        " + RED + "pid" + END + ":\n            " + BOLD_YELLOW + "7" + END + "\n")
                .contains("            " + RED + "|_" + END + "\n");
    }

    @Test
    void aMinionThatDidNotReturnIsPrintedAsSaltsNoReturnOutputter() {
        assertThat(print(out -> colored.noReturn(out, "ghost", "Minion did not return. [No response]")))
                .isEqualTo(CYAN + "ghost" + END + ":\n" + RED + "    Minion did not return. [No response]" + END + "\n");
        assertThat(print(out -> new NestedOutputter().noReturn(out, "ghost", "Minion did not return. [No response]")))
                .isEqualTo("ghost:\n    Minion did not return. [No response]\n");
    }

    @Test
    void staticOutputColoursEachMinionByItsOwnRetcode() {
        Map<String, Object> returns = new LinkedHashMap<>();
        returns.put("b", "fine");
        returns.put("a", "broke");
        String printed = print(out -> colored.all(out, returns, Map.of("a", 1, "b", 0)));

        assertThat(printed).isEqualTo(RED + "a" + END + ":\n    " + GREEN + "broke" + END + "\n"
                + CYAN + "b" + END + ":\n    " + GREEN + "fine" + END + "\n");
    }

    @Test
    void coloursAreUsedOnATerminalOnlyUnlessForcedOrRefused() {
        assertThat(Palette.choose(true, false, false)).isEqualTo(Palette.SALT);
        assertThat(Palette.choose(false, false, false)).isEqualTo(Palette.NONE);
        assertThat(Palette.choose(true, false, true)).isEqualTo(Palette.NONE);
        assertThat(Palette.choose(false, true, false)).isEqualTo(Palette.SALT);
        assertThat(print(out -> Outputter.named("nested", 4).one(out, "m", true))).isEqualTo("m:\n    True\n");
    }
}
