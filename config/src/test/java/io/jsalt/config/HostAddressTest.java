package io.jsalt.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostAddressTest {
    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "127.0.0.1", "255.255.255.255", "::", "::1", "fe80::1%eth0",
        "2001:db8::8a2e:370:7334", "2001:0db8:0000:0000:0000:ff00:0042:8329", "::ffff:192.0.2.1", "salt",
        "salt.example.com", "salt.example.com.", "my_host", "web-01", "localhost", "1abc"})
    void acceptsIpLiteralsAndHostNames(String host) {
        assertThat(HostAddress.isValid(host)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "10.0.0.300", "1.2.3", "1.2.3.4.5", ":::", "1::2::3", "[::1]", "12345::",
        "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "salt master", "-salt", "salt-", "salt..example", "a/b",
        "tcp://salt", "fe80::1%", "salt:4506"})
    void refusesWhatIsNeitherAnAddressNorAName(String host) {
        assertThat(HostAddress.isValid(host)).isFalse();
    }
}
