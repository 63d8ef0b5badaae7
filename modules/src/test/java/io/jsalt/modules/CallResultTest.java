package io.jsalt.modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CallResultTest {

    private enum Colour { RED }

    @Test
    void helpersSetSuccessFromTheRetcode() {
        assertThat(CallResult.ok("x")).isEqualTo(new CallResult("x", 0, true));
        assertThat(CallResult.failed("x", 3)).isEqualTo(new CallResult("x", 3, false));
        assertThat(CallResult.withRetcode(true, 0).success()).isTrue();
        assertThat(CallResult.withRetcode(true, 2).success()).isFalse();
    }

    @Test
    void returnValuesAreReducedToWireTypes() {
        Map<Object, Object> raw = new TreeMap<>();
        raw.put(1, Set.of("a"));
        raw.put(2, new int[] {1, 2});
        raw.put(3, Path.of("/tmp"));
        raw.put(4, Colour.RED);
        raw.put(5, 1.5f);
        raw.put(6, (short) 7);
        raw.put(7, Optional.empty());
        raw.put(8, BigInteger.TEN.pow(30));
        raw.put(9, BigInteger.TEN);

        @SuppressWarnings("unchecked")
        Map<String, Object> ret = (Map<String, Object>) CallResult.ok(raw).ret();

        assertThat(ret).containsEntry("1", List.of("a")).containsEntry("2", List.of(1, 2))
                .containsEntry("3", "/tmp").containsEntry("4", "RED").containsEntry("5", 1.5d)
                .containsEntry("6", 7).containsEntry("7", null)
                .containsEntry("8", "1000000000000000000000000000000").containsEntry("9", 10L);
    }

    @Test
    void cyclicReturnValueIsRejectedRatherThanOverflowingTheStack() {
        List<Object> cycle = new ArrayList<>();
        cycle.add(cycle);

        assertThatThrownBy(() -> CallResult.ok(cycle)).isInstanceOf(IllegalArgumentException.class);
    }
}
