package io.jsalt.modules.builtin.net;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.grains.Ipv6Text;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The network interfaces in Salt's {@code network.interfaces} shape, from the JDK:
 * {@code {iface: {hwaddr, up, inet: [{address, netmask, broadcast, label}], inet6: [{address, prefixlen, scope}]}}}.
 */
public final class InterfaceTable {

    private InterfaceTable() {
    }

    /** Every interface, sorted by name. */
    public static Map<String, Object> read() {
        List<NetworkInterface> interfaces;
        try {
            interfaces = Collections.list(NetworkInterface.getNetworkInterfaces());
        } catch (SocketException e) {
            throw new CommandExecutionException("Unable to list network interfaces: " + e.getMessage(), e);
        }
        Map<String, Object> ret = new TreeMap<>();
        for (NetworkInterface nic : interfaces) {
            try {
                ret.put(nic.getName(), describe(nic));
            } catch (SocketException e) {
                // the interface went away while being read (a VPN tunnel closing): it is no longer there
            }
        }
        return ret;
    }

    private static Map<String, Object> describe(NetworkInterface nic) throws SocketException {
        List<Object> inet = new ArrayList<>();
        List<Object> inet6 = new ArrayList<>();
        for (InterfaceAddress address : nic.getInterfaceAddresses()) {
            if (address.getAddress() instanceof Inet4Address v4) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("address", HexAddress.text(v4.getAddress()));
                entry.put("netmask", IpNetwork.ipv4Netmask(address.getNetworkPrefixLength()));
                if (address.getBroadcast() != null) {
                    entry.put("broadcast", HexAddress.text(address.getBroadcast().getAddress()));
                }
                entry.put("label", nic.getName());
                inet.add(entry);
            } else if (address.getAddress() instanceof Inet6Address v6) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("address", Ipv6Text.format(v6.getAddress()));
                entry.put("prefixlen", Integer.toString(address.getNetworkPrefixLength()));
                entry.put("scope", scope(v6));
                inet6.add(entry);
            }
        }
        Map<String, Object> ret = new LinkedHashMap<>();
        String hwaddr = hardwareAddress(nic);
        if (hwaddr != null) {
            ret.put("hwaddr", hwaddr);
        }
        ret.put("up", nic.isUp());
        if (!inet.isEmpty()) {
            ret.put("inet", inet);
        }
        if (!inet6.isEmpty()) {
            ret.put("inet6", inet6);
        }
        return ret;
    }

    private static String scope(Inet6Address address) {
        if (address.isLoopbackAddress()) {
            return "host";
        }
        if (address.isLinkLocalAddress()) {
            return "link";
        }
        if (address.isSiteLocalAddress()) {
            return "site";
        }
        return "global";
    }

    private static String hardwareAddress(NetworkInterface nic) throws SocketException {
        byte[] mac = nic.getHardwareAddress();
        if (mac == null || mac.length == 0) {
            // Salt shows the loopback's all-zero link address; tunnels without one get none
            return nic.isLoopback() ? "00:00:00:00:00:00" : null;
        }
        return HexFormat.ofDelimiter(":").formatHex(mac);
    }
}
