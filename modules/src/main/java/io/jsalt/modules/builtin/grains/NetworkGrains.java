package io.jsalt.modules.builtin.grains;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Address grains from the network interfaces: ipv4 and ipv6 (every address, loopback included, as in
 * Salt), and per interface ip4_interfaces, ip6_interfaces, ip_interfaces and hwaddr_interfaces.
 */
public final class NetworkGrains {

    private static final Comparator<byte[]> BY_BYTES = Arrays::compareUnsigned;

    private NetworkGrains() {
    }

    public static Map<String, Object> collect() throws SocketException {
        Map<String, Object> grains = new LinkedHashMap<>();
        TreeSet<byte[]> v4 = new TreeSet<>(BY_BYTES);
        TreeSet<byte[]> v6 = new TreeSet<>(BY_BYTES);
        Map<String, Object> ip4Interfaces = new TreeMap<>();
        Map<String, Object> ip6Interfaces = new TreeMap<>();
        Map<String, Object> ipInterfaces = new TreeMap<>();
        Map<String, Object> hwaddrInterfaces = new TreeMap<>();
        List<NetworkInterface> interfaces = Collections.list(NetworkInterface.getNetworkInterfaces());
        for (NetworkInterface nic : interfaces) {
            List<String> own4 = new ArrayList<>();
            List<String> own6 = new ArrayList<>();
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address) {
                    v4.add(address.getAddress());
                    own4.add(address.getHostAddress());
                } else if (address instanceof Inet6Address) {
                    v6.add(address.getAddress());
                    own6.add(Ipv6Text.format(address.getAddress()));
                }
            }
            List<String> all = new ArrayList<>(own4);
            all.addAll(own6);
            ip4Interfaces.put(nic.getName(), own4);
            ip6Interfaces.put(nic.getName(), own6);
            ipInterfaces.put(nic.getName(), all);
            String hwaddr = hardwareAddress(nic);
            if (hwaddr != null) {
                hwaddrInterfaces.put(nic.getName(), hwaddr);
            }
        }
        grains.put("ipv4", v4.stream().map(NetworkGrains::ipv4Text).toList());
        grains.put("ipv6", v6.stream().map(Ipv6Text::format).toList());
        grains.put("ip4_interfaces", ip4Interfaces);
        grains.put("ip6_interfaces", ip6Interfaces);
        grains.put("ip_interfaces", ipInterfaces);
        grains.put("hwaddr_interfaces", hwaddrInterfaces);
        return grains;
    }

    private static String hardwareAddress(NetworkInterface nic) throws SocketException {
        byte[] mac = nic.getHardwareAddress();
        if (mac == null || mac.length == 0) {
            // Salt shows the loopback's all-zero address; other interfaces without one are left out
            return nic.isLoopback() ? "00:00:00:00:00:00" : null;
        }
        return HexFormat.ofDelimiter(":").formatHex(mac);
    }

    private static String ipv4Text(byte[] address) {
        return (address[0] & 0xff) + "." + (address[1] & 0xff) + "." + (address[2] & 0xff) + "." + (address[3] & 0xff);
    }
}
