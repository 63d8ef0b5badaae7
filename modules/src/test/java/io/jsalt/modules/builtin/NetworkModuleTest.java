package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.builtin.cmd.ExecutablePath;
import io.jsalt.modules.builtin.grains.Ipv6Text;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NetworkModuleTest {

    @TempDir
    Path dir;

    private final ModuleCalls system = ModuleCalls.builtIn();

    private static List<NetworkInterface> nics() throws IOException {
        return Collections.list(NetworkInterface.getNetworkInterfaces());
    }

    @Test
    void interfacesListsEveryInterfaceTheJdkSeesInSaltsShape() throws IOException {
        Map<String, Object> interfaces = system.map("network.interfaces");

        assertThat(interfaces.keySet()).containsExactlyInAnyOrderElementsOf(nics().stream().map(NetworkInterface::getName).toList());
        for (NetworkInterface nic : nics()) {
            Map<String, Object> data = ModuleCalls.asMap(interfaces.get(nic.getName()));
            assertThat(data).containsEntry("up", nic.isUp());
            for (InterfaceAddress address : nic.getInterfaceAddresses()) {
                if (address.getAddress() instanceof Inet4Address v4) {
                    assertThat((List<?>) data.get("inet")).anySatisfy(entry -> assertThat(ModuleCalls.asMap(entry))
                            .containsEntry("address", v4.getHostAddress()).containsEntry("label", nic.getName())
                            .containsKey("netmask"));
                }
            }
            byte[] mac = nic.getHardwareAddress();
            if (mac != null && mac.length > 0) {
                assertThat(system.ret("network.hw_addr", nic.getName())).isEqualTo(HexFormat.ofDelimiter(":").formatHex(mac));
            }
        }
        Map<String, Object> lo = ModuleCalls.asMap(interfaces.get("lo"));
        assertThat(lo).containsEntry("hwaddr", "00:00:00:00:00:00");
        assertThat(ModuleCalls.asMap(((List<?>) lo.get("inet")).get(0))).containsEntry("address", "127.0.0.1")
                .containsEntry("netmask", "255.0.0.0");
    }

    @Test
    void hwAddrOfAnUnknownInterfaceAnswersLikeSalt() {
        assertThat((String) system.ret("network.hw_addr", "nosuch0")).startsWith("Interface \"nosuch0\" not in available interfaces: ");
    }

    @Test
    void ipAddrsAreTheJdksAddressesSortedWithLoopbackOnlyWhenAsked() throws IOException {
        TreeSet<String> v4 = new TreeSet<>();
        TreeSet<String> v6 = new TreeSet<>();
        for (NetworkInterface nic : nics()) {
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                    v4.add(address.getHostAddress());
                } else if (address instanceof Inet6Address && !address.isLoopbackAddress()) {
                    v6.add(Ipv6Text.format(address.getAddress()));
                }
            }
        }

        assertThat(system.list("network.ip_addrs")).containsExactlyInAnyOrderElementsOf(v4);
        assertThat(system.list("network.ip_addrs6")).containsExactlyInAnyOrderElementsOf(v6);
        assertThat(system.list("network.ip_addrs", ModuleCalls.kwargs("include_loopback", true))).contains("127.0.0.1");
        assertThat(system.list("network.ip_addrs", ModuleCalls.kwargs("interface", "lo", "include_loopback", true)))
                .containsExactly("127.0.0.1");
        assertThat(system.list("network.ip_addrs6", ModuleCalls.kwargs("interface", "lo", "include_loopback", true)))
                .containsExactly("::1");
        assertThat(system.list("network.ip_addrs", ModuleCalls.kwargs("interface", "nosuch0"))).isEmpty();
        assertThat(system.list("network.ip_addrs", ModuleCalls.kwargs("include_loopback", true, "cidr", "127.0.0.0/8")))
                .containsExactly("127.0.0.1");
    }

    @Test
    void hostnameIsTheKernelsAndFqdnStartsWithIt() throws IOException {
        String kernel = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();

        assertThat(system.ret("network.get_hostname")).isEqualTo(kernel);
        assertThat((String) system.ret("network.get_fqdn")).startsWith(kernel.split("\\.")[0]);
    }

    @Test
    void pingUsesTheSystemPingOrSaysItIsMissing() {
        CallResult result = system.call("network.ping", "127.0.0.1", ModuleCalls.kwargs("return_boolean", true, "timeout", 1));

        if (ExecutablePath.find("ping", System.getenv("PATH")).isPresent()) {
            assertThat(result.ret()).isInstanceOf(Boolean.class);
        } else {
            assertThat(result.retcode()).isEqualTo(1);
            assertThat((String) result.ret()).startsWith("ERROR: 'ping' is not available on this minion");
        }
        assertThat(system.call("network.ping", "-f").ret()).isEqualTo("ERROR: Invalid host '-f'");
        assertThat(system.call("network.ping", "a;reboot").ret()).isEqualTo("ERROR: Invalid host 'a;reboot'");
    }

    @Test
    void connectReportsAListeningTcpPortAndAClosedOne() throws IOException {
        int closedPort;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = closed.getLocalPort();
        }
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = server.getLocalPort();

            assertThat(system.map("network.connect", "127.0.0.1", port)).containsExactly(Map.entry("result", true),
                    Map.entry("comment", "Successfully connected to 127.0.0.1 (127.0.0.1) on tcp port " + port));
        }
        // Salt's minion fails a job whose return dict has a false "result": retcode 1
        CallResult closed = system.call("network.connect", "127.0.0.1", closedPort, ModuleCalls.kwargs("timeout", 1));
        assertThat(closed.retcode()).isEqualTo(1);
        assertThat(ModuleCalls.asMap(closed.ret())).containsEntry("result", false)
                .containsEntry("comment", "Unable to connect to 127.0.0.1 (127.0.0.1) on tcp port " + closedPort);
        assertThat(ModuleCalls.asMap(system.call("network.connect", "127.0.0.1").ret())).containsEntry("result", false)
                .containsEntry("comment", "Required argument, port, is missing.");
    }

    @Test
    void connectOverUdpSucceedsWhenThePeerAnswers() throws Exception {
        try (DatagramSocket echo = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            Thread responder = new Thread(() -> {
                try {
                    DatagramPacket packet = new DatagramPacket(new byte[16], 16);
                    echo.receive(packet);
                    echo.send(new DatagramPacket(new byte[] {1}, 1, packet.getSocketAddress()));
                } catch (IOException e) {
                    // the test fails on the result below
                }
            });
            responder.start();

            assertThat(system.map("network.connect", "127.0.0.1", echo.getLocalPort(),
                    ModuleCalls.kwargs("proto", "udp", "timeout", 5))).containsEntry("result", true);
            responder.join(5000);
        }
    }

    @Test
    void netstatShowsOurListeningSocketWithItsProgram() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String suffix = ":" + server.getLocalPort();
            long pid = ProcessHandle.current().pid();

            assertThat(system.list("network.netstat")).anySatisfy(row -> assertThat(ModuleCalls.asMap(row))
                    .containsEntry("state", "LISTEN").containsEntry("program", pid + "/java")
                    .containsEntry("user", System.getProperty("user.name"))
                    .hasEntrySatisfying("local-address", address -> assertThat((String) address).endsWith(suffix))
                    .containsKeys("proto", "recv-q", "send-q", "remote-address", "inode"));
        }
    }

    @Test
    void routesParseTheKernelTables() throws IOException {
        Path proc = dir.resolve("proc");
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(proc.resolve("net/route"), """
                Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
                eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0
                eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
                """);
        Files.writeString(proc.resolve("net/ipv6_route"),
                "00000000000000000000000000000000 00 00000000000000000000000000000000 00 "
                        + "fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth0\n");
        ModuleCalls calls = ModuleCalls.of(new NetworkModule(proc));

        assertThat(calls.list("network.routes", "inet")).containsExactly(
                Map.of("addr_family", "inet", "destination", "0.0.0.0", "gateway", "192.0.2.1", "netmask", "0.0.0.0",
                        "flags", "UG", "interface", "eth0"),
                Map.of("addr_family", "inet", "destination", "192.0.2.0", "gateway", "0.0.0.0",
                        "netmask", "255.255.255.0", "flags", "U", "interface", "eth0"));
        assertThat(calls.list("network.routes", "inet6")).containsExactly(Map.of("addr_family", "inet6",
                "destination", "::/0", "gateway", "fd00::1", "netmask", "", "flags", "UG", "interface", "eth0"));
        assertThat(calls.list("network.routes")).hasSize(3);
        assertThat(calls.call("network.routes", "ipx").ret()).isEqualTo("ERROR: Invalid address family ipx");
        assertThat(system.list("network.routes")).isNotEmpty();
    }

    @Test
    void subnetsAndInSubnetFollowTheInterfaceAddresses() throws IOException {
        List<Object> subnets = system.list("network.subnets");
        for (NetworkInterface nic : nics()) {
            for (InterfaceAddress address : nic.getInterfaceAddresses()) {
                if (address.getAddress() instanceof Inet4Address && !address.getAddress().isLoopbackAddress()) {
                    String network = address.getAddress().getHostAddress();
                    assertThat(system.ret("network.in_subnet", network + "/32")).isEqualTo(true);
                    assertThat(subnets).anySatisfy(subnet -> assertThat((String) subnet)
                            .endsWith("/" + address.getNetworkPrefixLength()));
                }
            }
        }
        assertThat(subnets).noneSatisfy(subnet -> assertThat((String) subnet).startsWith("127."));
        assertThat(system.ret("network.in_subnet", "127.0.0.0/8")).isEqualTo(false);
        assertThat(system.list("network.subnets", ModuleCalls.kwargs("interfaces", "lo"))).isEmpty();
        assertThat(system.call("network.in_subnet", "10.0.0.1/8").ret())
                .isEqualTo("ERROR: Invalid CIDR '10.0.0.1/8': '10.0.0.1/8' has host bits set");
        assertThat(system.call("network.in_subnet", "example.com/8").retcode()).isEqualTo(1);
    }
}
