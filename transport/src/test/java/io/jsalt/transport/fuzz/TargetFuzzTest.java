package io.jsalt.transport.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.target.InvalidTargetException;
import io.jsalt.transport.target.MinionFacts;
import io.jsalt.transport.target.TargetMatcher;
import io.jsalt.transport.target.TargetType;
import java.util.List;
import java.util.Map;

/**
 * Coverage-guided fuzzing of the target parsers (glob, list, grain, pcre, ipcidr, compound, nodegroups) and
 * matching against fuzzed grains: a target either matches, does not, or is refused with an
 * {@link InvalidTargetException}. Inputs: {@code src/test/resources/io/jsalt/transport/fuzz/TargetFuzzTestInputs/}.
 */
class TargetFuzzTest {
    private static final List<String> TYPES = List.of("glob", "pcre", "list", "grain", "grain_pcre", "ipcidr", "compound",
            "nodegroup", "pillar", "range", "");

    @FuzzTest
    void targets(FuzzedDataProvider data) {
        String type = data.consumeBoolean() ? data.pickValue(TYPES) : data.consumeString(12);
        String expression = data.consumeString(200);
        Map<String, Object> nodegroups = Map.of("web", data.consumeString(60), "all", List.of("a", "b"), "loop", "N@loop");
        Map<String, Object> grains;
        try {
            grains = Wire.asMap(SaltPack.unpack(data.consumeRemainingAsBytes()));
        } catch (WireException e) {
            grains = Map.of("os", "Debian", "roles", List.of("web", "db"), "ipv4", List.of("10.0.0.1"));
        }
        try {
            TargetMatcher matcher = TargetMatcher.of(type, expression, nodegroups);
            matcher.matches(new MinionFacts("web1.example.com", grains));
            matcher.matches(MinionFacts.idOnly("db-2"));
        } catch (InvalidTargetException e) {
            // refused: the layer's own exception
        }
        TargetType.fromWire(type);
    }
}
