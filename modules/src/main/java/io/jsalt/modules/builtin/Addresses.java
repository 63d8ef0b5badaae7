package io.jsalt.modules.builtin;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.net.HexAddress;
import io.jsalt.modules.builtin.net.IpNetwork;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Addresses and networks picked out of a {@code network.interfaces} map, the way Salt's network utils do. */
final class Addresses {

    private Addresses() {
    }

    /**
     * The addresses of one family ("inet" or "inet6"), sorted numerically and without duplicates. An
     * unknown interface gives none, as in Salt.
     */
    static List<String> of(Map<String, Object> interfaces, String family, String iface, boolean includeLoopback,
                           String cidr) {
        IpNetwork network = cidr == null ? null : parse(cidr);
        TreeMap<byte[], String> found = new TreeMap<>(Arrays::compareUnsigned);
        for (Map.Entry<String, Object> nic : interfaces.entrySet()) {
            if (iface != null && !iface.equals(nic.getKey())) {
                continue;
            }
            for (Map<?, ?> entry : entries(nic.getValue(), family)) {
                byte[] address = IpNetwork.parseAddress((String) entry.get("address"));
                if (!includeLoopback && isLoopback(address)) {
                    continue;
                }
                if (network == null || network.contains(address)) {
                    found.put(address, HexAddress.text(address));
                }
            }
        }
        return List.copyOf(found.values());
    }

    /** The networks of a family's addresses, loopback left out; ifaces is a name, a list of names, or null. */
    static List<String> subnets(Map<String, Object> interfaces, String family, Object ifaces) {
        TreeSet<IpNetwork> networks = new TreeSet<>();
        for (Map.Entry<String, Object> nic : interfaces.entrySet()) {
            if (!selected(nic.getKey(), ifaces)) {
                continue;
            }
            for (Map<?, ?> entry : entries(nic.getValue(), family)) {
                byte[] address = IpNetwork.parseAddress((String) entry.get("address"));
                if (isLoopback(address)) {
                    continue;
                }
                int prefix = family.equals("inet")
                        ? IpNetwork.prefixOf(IpNetwork.parseAddress((String) entry.get("netmask")))
                        : Integer.parseInt((String) entry.get("prefixlen"));
                networks.add(IpNetwork.of(address, prefix));
            }
        }
        return networks.stream().map(IpNetwork::toString).toList();
    }

    private static boolean selected(String name, Object ifaces) {
        if (ifaces == null) {
            return true;
        }
        if (ifaces instanceof List<?> list) {
            return list.stream().map(String::valueOf).anyMatch(name::equals);
        }
        return List.of(String.valueOf(ifaces).split(",")).stream().map(String::strip).anyMatch(name::equals);
    }

    private static List<Map<?, ?>> entries(Object nic, String family) {
        if (nic instanceof Map<?, ?> data && data.get(family) instanceof List<?> list) {
            return list.stream().filter(Map.class::isInstance).<Map<?, ?>>map(item -> (Map<?, ?>) item).toList();
        }
        return List.of();
    }

    private static boolean isLoopback(byte[] address) {
        if (address.length == 4) {
            return (address[0] & 0xff) == 127;
        }
        for (int i = 0; i < 15; i++) {
            if (address[i] != 0) {
                return false;
            }
        }
        return address[15] == 1;
    }

    private static IpNetwork parse(String cidr) {
        try {
            return IpNetwork.parse(cidr);
        } catch (IllegalArgumentException e) {
            throw new CommandExecutionException("Invalid CIDR '" + cidr + "': " + e.getMessage());
        }
    }
}
