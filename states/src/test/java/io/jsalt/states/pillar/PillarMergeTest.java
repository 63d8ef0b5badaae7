package io.jsalt.states.pillar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

class PillarMergeTest {

    @SuppressWarnings("unchecked")
    private static Map<String, Object> yaml(String text) {
        return (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
    }

    @Test
    void recurseMergesSaltsDocumentedExample() {
        // the example of pillar_source_merging_strategy: recurse in Salt's master configuration docs
        Map<String, Object> first = yaml("foo: 42\nbar:\n  element1: True\n");
        Map<String, Object> second = yaml("bar:\n  element2: True\nbaz: quux\n");
        assertThat(new PillarMerge("recurse", false).merge(first, second))
                .isEqualTo(yaml("foo: 42\nbar:\n  element1: True\n  element2: True\nbaz: quux\n"));
    }

    @Test
    void smartAndNoneMergeAsRecurse() {
        Map<String, Object> first = yaml("a: {x: 1, deep: {p: 1}}\n");
        Map<String, Object> second = yaml("a: {y: 2, deep: {q: 2}}\n");
        Map<String, Object> expected = yaml("a: {x: 1, y: 2, deep: {p: 1, q: 2}}\n");
        assertThat(new PillarMerge("smart", false).merge(first, second)).isEqualTo(expected);
        assertThat(new PillarMerge("none", false).merge(first, second)).isEqualTo(expected);
        assertThat(PillarMerge.defaults().merge(first, second)).isEqualTo(expected);
    }

    @Test
    void overwriteReplacesTopLevelKeysWholeAsSaltsDocumentedExample() {
        // the example of pillar_source_merging_strategy: overwrite in Salt's docs
        Map<String, Object> first = yaml("A:\n  first_key: blah\n  second_key: blah\n");
        Map<String, Object> second = yaml("A:\n  third_key: blah\n  fourth_key: blah\n");
        assertThat(new PillarMerge("overwrite", false).merge(first, second))
                .isEqualTo(yaml("A:\n  third_key: blah\n  fourth_key: blah\n"));
        assertThat(new PillarMerge("overwrite", false).merge(yaml("B: 1\n"), second))
                .isEqualTo(yaml("B: 1\nA:\n  third_key: blah\n  fourth_key: blah\n"));
    }

    @Test
    void aggregateWithoutYamlexMarksKeepsTopKeysAndTheLaterValue() {
        // what Salt's aggregate(level=1) computes for plain YAML (no !aggregate tags)
        Map<String, Object> first = yaml("foo: 42\nbar: {element1: True, n: {a: 1}}\nlist: [1]\n");
        Map<String, Object> second = yaml("bar: {element2: True, n: {b: 2}}\nbaz: quux\nlist: [2]\n");
        assertThat(new PillarMerge("aggregate", false).merge(first, second))
                .isEqualTo(yaml("foo: 42\nbar: {element2: True, n: {b: 2}}\nlist: [2]\nbaz: quux\n"));
    }

    @Test
    void listsAreReplacedUnlessMergeListsThenJoinedWithoutRepeatingEarlierItems() {
        Map<String, Object> first = yaml("pkgs: [vim, git]\nnested: {l: [1]}\n");
        Map<String, Object> second = yaml("pkgs: [git, curl, curl]\nnested: {l: [2]}\n");
        assertThat(new PillarMerge("smart", false).merge(first, second))
                .isEqualTo(yaml("pkgs: [git, curl, curl]\nnested: {l: [2]}\n"));
        // Salt compares with the earlier list only: a repeat inside the later list stays
        assertThat(new PillarMerge("smart", true).merge(first, second))
                .isEqualTo(yaml("pkgs: [vim, git, curl, curl]\nnested: {l: [1, 2]}\n"));
    }

    @Test
    void aScalarAndAMapReplaceEachOther() {
        assertThat(PillarMerge.defaults().merge(yaml("a: {x: 1}\n"), yaml("a: text\n"))).isEqualTo(yaml("a: text\n"));
        assertThat(PillarMerge.defaults().merge(yaml("a: text\n"), yaml("a: {x: 1}\n"))).isEqualTo(yaml("a: {x: 1}\n"));
    }

    @Test
    void neitherInputChangesAndTheResultSharesNothingWithThem() {
        Map<String, Object> inner = new LinkedHashMap<>(Map.of("x", 1));
        Map<String, Object> first = new LinkedHashMap<>(Map.of("a", inner, "l", new ArrayList<>(List.of(1))));
        Map<String, Object> second = yaml("a: {y: 2}\nl: [2]\n");
        Map<String, Object> merged = new PillarMerge("recurse", true).merge(first, second);
        assertThat(first).isEqualTo(Map.of("a", Map.of("x", 1), "l", List.of(1)));
        assertThat(second).isEqualTo(yaml("a: {y: 2}\nl: [2]\n"));
        ((Map<String, Object>) merged.get("a")).put("z", 3);
        assertThat(inner).doesNotContainKey("z");
    }

    @Test
    void anUnknownStrategyIsRefused() {
        assertThatThrownBy(() -> new PillarMerge("yamlex", false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("yamlex");
    }
}
