package io.jsalt.modules.builtin.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcNetParsingTest {

    @Test
    void hexAddressesAreLittleEndianWords() {
        assertThat(HexAddress.text(HexAddress.decode("0100007F"))).isEqualTo("127.0.0.1");
        assertThat(HexAddress.text(HexAddress.decode("0000000000000000FFFF00000100007F"))).isEqualTo("::ffff:127.0.0.1");
        assertThat(HexAddress.text(HexAddress.decode("000080FE00000000FF000C0201FE00FE"))).isEqualTo("fe80::20c:ff:fe00:fe01");
        assertThat(HexAddress.text(HexAddress.decodeNetworkOrder("fd000000000000000000000000000001"))).isEqualTo("fd00::1");
    }

    @Test
    void endpointsShowPortZeroAsAStar() {
        assertThat(SocketTable.endpoint("00000000:0016")).isEqualTo("0.0.0.0:22");
        assertThat(SocketTable.endpoint("00000000000000000000000000000000:0000")).isEqualTo(":::*");
    }

    @Test
    void aTcpLineBecomesANetstatRow() {
        String line = "   0: 0100007F:0277 00000000:0000 0A 00000002:00000001 00:00000000 00000000     0        0 1605 1 "
                + "00000000bf25ac09 100 0 0 10 0";

        Map<String, Object> row = SocketTable.parseLine("tcp", line, uid -> uid == 0 ? "root" : "?", Map.of(1605L, "12/cupsd"));

        assertThat(row).containsExactly(Map.entry("proto", "tcp"), Map.entry("recv-q", "1"), Map.entry("send-q", "2"),
                Map.entry("local-address", "127.0.0.1:631"), Map.entry("remote-address", "0.0.0.0:*"),
                Map.entry("state", "LISTEN"), Map.entry("user", "root"), Map.entry("inode", "1605"),
                Map.entry("program", "12/cupsd"));
    }

    @Test
    void udpRowsHaveNoState() {
        String line = "  1: 00000000:0044 00000000:0000 07 00000000:00000000 00:00000000 00000000   100        0 77 2 0";

        assertThat(SocketTable.parseLine("udp", line, Long::toString, Map.of())).doesNotContainKey("state")
                .containsEntry("user", "100").containsEntry("program", "-").containsEntry("local-address", "0.0.0.0:68");
        assertThat(SocketTable.parseLine("udp", "  sl  local_address rem_address   st tx_queue rx_queue tr", Long::toString,
                Map.of())).isNull();
    }

    @Test
    void routeFlagsUseNetstatsLetters() {
        assertThat(RouteTable.flags(0x3)).isEqualTo("UG");
        assertThat(RouteTable.flags(0x5)).isEqualTo("UH");
        assertThat(RouteTable.flags(0x201)).isEqualTo("U!");
    }

    @Test
    void networksParseStrictlyAndContainTheirAddresses() {
        IpNetwork net = IpNetwork.parse("10.1.0.0/16");

        assertThat(net.contains(IpNetwork.parseAddress("10.1.255.3"))).isTrue();
        assertThat(net.contains(IpNetwork.parseAddress("10.2.0.1"))).isFalse();
        assertThat(net.contains(IpNetwork.parseAddress("::1"))).isFalse();
        assertThat(IpNetwork.parse("2001:db8::/32").contains(IpNetwork.parseAddress("2001:db8:1::5"))).isTrue();
        assertThat(IpNetwork.of(IpNetwork.parseAddress("192.0.2.77"), 24)).hasToString("192.0.2.0/24");
        assertThat(IpNetwork.parse("192.0.2.1")).hasToString("192.0.2.1/32");
        assertThat(IpNetwork.ipv4Netmask(20)).isEqualTo("255.255.240.0");
        assertThatThrownBy(() -> IpNetwork.parse("10.1.0.1/16")).hasMessageContaining("host bits set");
        assertThatThrownBy(() -> IpNetwork.parse("10.0.0.0/33")).hasMessageContaining("bad prefix length");
        assertThatThrownBy(() -> IpNetwork.parseAddress("1.2.3.999")).hasMessageContaining("not an IP address");
        assertThatThrownBy(() -> IpNetwork.parseAddress("localhost")).hasMessageContaining("not an IP address");
    }
}
