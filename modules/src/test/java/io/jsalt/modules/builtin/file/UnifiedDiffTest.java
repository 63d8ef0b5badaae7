package io.jsalt.modules.builtin.file;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Expected texts are what Python's difflib.unified_diff prints for the same input. */
class UnifiedDiffTest {

    @Test
    void equalTextsHaveAnEmptyDiff() {
        assertThat(UnifiedDiff.of("a\nb\n", "a\nb\n")).isEmpty();
    }

    @Test
    void distantChangesFormSeparateHunksWithThreeLinesOfContext() {
        String before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
        String after = "1\n2\nX\n4\n5\n6\n7\n8\n9\n10\nY\n12\n13\n";

        assertThat(UnifiedDiff.of(before, after)).isEqualTo("--- \n+++ \n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+X\n 4\n 5\n 6\n"
                + "@@ -8,5 +8,6 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n+13\n");
    }

    @Test
    void deletionsAndAnUnterminatedLastLineMatchDifflib() {
        assertThat(UnifiedDiff.of("a\nb\nc\n", "a\nc\nd")).isEqualTo("--- \n+++ \n@@ -1,3 +1,3 @@\n a\n-b\n c\n+d");
    }

    @Test
    void anEmptyOriginalUsesTheZeroRange() {
        assertThat(UnifiedDiff.of("", "x\n")).isEqualTo("--- \n+++ \n@@ -0,0 +1 @@\n+x\n");
    }

    @Test
    void linesAlignWhereDifflibAlignsThemNotJustOnAnyLongestCommonSubsequence() {
        assertThat(UnifiedDiff.of("d\nd\ne\nc\nb\n", "d\ne\ny\nb\nd\n"))
                .isEqualTo("--- \n+++ \n@@ -1,5 +1,5 @@\n-d\n d\n e\n-c\n+y\n b\n+d\n");
    }
}
