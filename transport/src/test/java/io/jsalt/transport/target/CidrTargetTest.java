package io.jsalt.transport.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ipcidr targets: an address or a network against the minion's ipv4 and ipv6 grains. */
class CidrTargetTest {

    private static final MinionFacts WEB = new MinionFacts("web1", Map.of(
            "ipv4", List.of("127.0.0.1", "10.1.2.3"),
            "ipv6", List.of("::1", "fe80::5054:ff:fe12:3456%eth0", "2001:db8::42")));

    private static Decision cidr(String tgt) {
        return TargetMatcher.of("ipcidr", tgt).decide(WEB);
    }

    @Test
    void matchesANetworkHoldingAnyOfTheMinionsAddresses() {
        assertThat(cidr("10.0.0.0/8")).isEqualTo(Decision.MATCH);
        assertThat(cidr("127.0.0.0/8")).isEqualTo(Decision.MATCH);
        assertThat(cidr("10.1.2.0/24")).isEqualTo(Decision.MATCH);
        assertThat(cidr("192.168.0.0/16")).isEqualTo(Decision.NO_MATCH);
        assertThat(cidr("0.0.0.0/0")).isEqualTo(Decision.MATCH);
    }

    @Test
    void matchesASingleAddress() {
        assertThat(cidr("10.1.2.3")).isEqualTo(Decision.MATCH);
        assertThat(cidr("10.1.2.4")).isEqualTo(Decision.NO_MATCH);
        assertThat(cidr("10.1.2.3/32")).isEqualTo(Decision.MATCH);
    }

    @Test
    void matchesIpv6AgainstTheIpv6Grain() {
        assertThat(cidr("2001:db8::/32")).isEqualTo(Decision.MATCH);
        assertThat(cidr("2001:0db8:0000::0042")).isEqualTo(Decision.MATCH);
        assertThat(cidr("fe80::/10")).as("a zone suffix on the grain is ignored").isEqualTo(Decision.MATCH);
        assertThat(cidr("2001:db9::/32")).isEqualTo(Decision.NO_MATCH);
        assertThat(cidr("::ffff:10.1.2.3")).as("no ipv4 fallback for an ipv6 target").isEqualTo(Decision.NO_MATCH);
    }

    @Test
    void acceptsAnAddressGrainGivenAsOneString() {
        MinionFacts one = new MinionFacts("m", Map.of("ipv4", "192.168.1.9"));

        assertThat(TargetMatcher.of("ipcidr", "192.168.1.0/24").decide(one)).isEqualTo(Decision.MATCH);
    }

    @Test
    void doesNotMatchWithoutTheFamilysGrainAndIsUnknownWithoutGrains() {
        assertThat(TargetMatcher.of("ipcidr", "10.0.0.0/8").decide(new MinionFacts("m", Map.of()))).isEqualTo(Decision.NO_MATCH);
        assertThat(TargetMatcher.of("ipcidr", "10.0.0.0/8").decide(MinionFacts.idOnly("m"))).isEqualTo(Decision.UNKNOWN);
        MinionFacts junk = new MinionFacts("m", Map.of("ipv4", List.of("not-an-ip", 7L)));
        assertThat(TargetMatcher.of("ipcidr", "10.0.0.0/8").decide(junk)).isEqualTo(Decision.NO_MATCH);
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.1/8", "10.0.0.0/33", "10.0.0", "256.0.0.1", "010.0.0.1", "web1", "10.0.0.0/", "::1::2",
            "2001:db8::/129", "1:2:3:4:5:6:7:8:9", "example.org", "10.0.0.0/-1", " "})
    void refusesWhatPythonsIpaddressRefuses(String tgt) {
        assertThatThrownBy(() -> TargetMatcher.of("ipcidr", tgt))
                .isInstanceOf(InvalidTargetException.class)
                .hasMessageContaining("IP/CIDR");
    }

    @Test
    void parsesIpv6LiteralsInEveryForm() {
        assertThat(IpLiteral.parse("::")).get().satisfies(b -> assertThat(b).hasSize(16).containsOnly(0));
        assertThat(IpLiteral.parse("1:2:3:4:5:6:7:8")).isPresent();
        assertThat(IpLiteral.parse("1::8")).isPresent();
        assertThat(IpLiteral.parse("::ffff:1.2.3.4")).get().satisfies(b -> assertThat(b[15]).isEqualTo((byte) 4));
        assertThat(IpLiteral.parse("1:2:3:4:5:6:7::8")).isEmpty();
        assertThat(IpLiteral.parse("12345::")).isEmpty();
        assertThat(IpLiteral.parse("g::1")).isEmpty();
    }
}
