package io.jsalt.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TextTableTest {
    @Test
    void rendersAMarkdownTableWithRightAlignedColumnsWideEnoughForEveryCell() {
        String table = new TextTable("N", "p50 ms").row(1, 0.85).row(10000, 123.0).render();

        assertThat(table).isEqualTo("""
                |     N | p50 ms |
                |------:|-------:|
                |     1 |    0.9 |
                | 10000 |    123 |
                """);
    }

    @Test
    void refusesARowWithTheWrongNumberOfCells() {
        assertThatThrownBy(() -> new TextTable("a", "b").row(1)).isInstanceOf(IllegalArgumentException.class);
    }
}
