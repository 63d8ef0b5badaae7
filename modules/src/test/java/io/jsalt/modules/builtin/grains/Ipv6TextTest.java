package io.jsalt.modules.builtin.grains;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class Ipv6TextTest {

    private static String format(String address) throws Exception {
        return Ipv6Text.format(InetAddress.getByName(address).getAddress());
    }

    @Test
    void compressesLikePythonsIpaddress() throws Exception {
        assertThat(format("0:0:0:0:0:0:0:1")).isEqualTo("::1");
        assertThat(format("0:0:0:0:0:0:0:0")).isEqualTo("::");
        assertThat(format("fe80:0:0:0:fc:ff:fe00:1")).isEqualTo("fe80::fc:ff:fe00:1");
        assertThat(format("fd00:0:0:0:0:0:0:2")).isEqualTo("fd00::2");
        assertThat(format("2001:db8:0:1:0:0:0:1")).isEqualTo("2001:db8:0:1::1");
        assertThat(format("2001:db8:0:0:1:0:0:1")).isEqualTo("2001:db8::1:0:0:1");
        assertThat(format("2001:db8:1:2:3:4:5:6")).isEqualTo("2001:db8:1:2:3:4:5:6");
        assertThat(format("1:0:2:3:4:5:6:0")).isEqualTo("1:0:2:3:4:5:6:0");
    }

    @Test
    void refusesAnythingButSixteenBytes() {
        assertThatThrownBy(() -> Ipv6Text.format(new byte[4])).isInstanceOf(IllegalArgumentException.class);
    }
}
