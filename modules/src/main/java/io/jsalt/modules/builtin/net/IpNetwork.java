package io.jsalt.modules.builtin.net;

import io.jsalt.modules.builtin.grains.Ipv6Text;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * An IPv4 or IPv6 network in CIDR form, strict like Python's {@code ipaddress.ip_network}: host bits
 * must be zero. Parsing never touches DNS.
 */
public record IpNetwork(byte[] base, int prefix) implements Comparable<IpNetwork> {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    public IpNetwork {
        base = base.clone();
    }

    /** Parses "a.b.c.d/n", "x::/n" or a bare address (a /32 or /128). */
    public static IpNetwork parse(String cidr) {
        String text = cidr.trim();
        int slash = text.indexOf('/');
        byte[] address = parseAddress(slash < 0 ? text : text.substring(0, slash));
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(text.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad prefix length in '" + cidr + "'");
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("bad prefix length in '" + cidr + "'");
            }
        }
        IpNetwork network = of(address, prefix);
        if (!Arrays.equals(network.base, address)) {
            throw new IllegalArgumentException("'" + cidr + "' has host bits set");
        }
        return network;
    }

    /** The network an interface address belongs to: the address with its host bits cleared. */
    public static IpNetwork of(byte[] address, int prefix) {
        byte[] masked = address.clone();
        for (int bit = prefix; bit < masked.length * 8; bit++) {
            masked[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        return new IpNetwork(masked, prefix);
    }

    /** A literal IPv4 or IPv6 address's bytes; never a DNS lookup. */
    public static byte[] parseAddress(String text) {
        boolean ipv4 = IPV4.matcher(text).matches();
        if (!ipv4 && !text.contains(":")) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address");
        }
        if (ipv4) {
            // an octet above 255 would make InetAddress treat the text as a host name and ask DNS
            for (String octet : text.split("\\.")) {
                if (Integer.parseInt(octet) > 255) {
                    throw new IllegalArgumentException("'" + text + "' is not an IP address");
                }
            }
        }
        try {
            // with a literal (checked above) InetAddress parses and never resolves
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException | SecurityException e) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address");
        }
    }

    public boolean contains(byte[] address) {
        return address.length == base.length && Arrays.equals(of(address, prefix).base, base);
    }

    /** The dotted netmask of an IPv4 prefix length, e.g. 24 -> 255.255.255.0. */
    public static String ipv4Netmask(int prefix) {
        return HexAddress.text(of(new byte[] {-1, -1, -1, -1}, prefix).base);
    }

    /** The prefix length of a dotted IPv4 netmask: the number of one bits. */
    public static int prefixOf(byte[] netmask) {
        int ones = 0;
        for (byte b : netmask) {
            ones += Integer.bitCount(b & 0xff);
        }
        return ones;
    }

    @Override
    public int compareTo(IpNetwork other) {
        if (base.length != other.base.length) {
            return Integer.compare(base.length, other.base.length);
        }
        int byAddress = Arrays.compareUnsigned(base, other.base);
        return byAddress != 0 ? byAddress : Integer.compare(prefix, other.prefix);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpNetwork network && network.prefix == prefix && Arrays.equals(network.base, base);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(base) * 31 + prefix;
    }

    @Override
    public String toString() {
        return (base.length == 4 ? HexAddress.text(base) : Ipv6Text.format(base)) + "/" + prefix;
    }
}
