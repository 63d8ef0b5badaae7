package io.jsalt.modules.builtin.net;

import io.jsalt.modules.builtin.grains.Ipv6Text;

/**
 * Addresses as /proc/net prints them: hex words in the host's byte order (little-endian on every Linux
 * jsalt runs on), 8 digits for IPv4 and 32 for IPv6.
 */
public final class HexAddress {

    private HexAddress() {
    }

    /** The address's bytes in network order. */
    public static byte[] decode(String hex) {
        if (hex.length() != 8 && hex.length() != 32) {
            throw new IllegalArgumentException("not a /proc/net address: " + hex);
        }
        byte[] bytes = new byte[hex.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                // byte i of a little-endian word is the pair of digits counted from its right end
                int digits = word * 8 + (3 - i) * 2;
                bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(digits, digits + 2), 16);
            }
        }
        return bytes;
    }

    /** Decodes an address whose words are in network order, as /proc/net/ipv6_route prints them. */
    public static byte[] decodeNetworkOrder(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }

    /** The text netstat shows: dotted IPv4, RFC 5952 IPv6, IPv4-mapped IPv6 as ::ffff:a.b.c.d. */
    public static String text(byte[] address) {
        if (address.length == 4) {
            return (address[0] & 0xff) + "." + (address[1] & 0xff) + "." + (address[2] & 0xff) + "."
                    + (address[3] & 0xff);
        }
        if (isIpv4Mapped(address)) {
            byte[] v4 = {address[12], address[13], address[14], address[15]};
            return "::ffff:" + text(v4);
        }
        return Ipv6Text.format(address);
    }

    private static boolean isIpv4Mapped(byte[] address) {
        for (int i = 0; i < 10; i++) {
            if (address[i] != 0) {
                return false;
            }
        }
        return (address[10] & 0xff) == 0xff && (address[11] & 0xff) == 0xff;
    }
}
