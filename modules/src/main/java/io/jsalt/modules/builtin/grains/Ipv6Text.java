package io.jsalt.modules.builtin.grains;

/**
 * The canonical text of an IPv6 address (RFC 5952: lower case, no leading zeros, the longest run of
 * zero groups as {@code ::}), which is what Python's {@code ipaddress} and so Salt's ipv6 grain print;
 * Java's own form is {@code 0:0:0:0:0:0:0:1%lo}.
 */
public final class Ipv6Text {

    private Ipv6Text() {
    }

    public static String format(byte[] address) {
        if (address.length != 16) {
            throw new IllegalArgumentException("an IPv6 address has 16 bytes, got " + address.length);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((address[2 * i] & 0xff) << 8) | (address[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 0;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < 8 && groups[i] == 0) {
                i++;
            }
            if (i - start > bestLength) {
                bestStart = start;
                bestLength = i - start;
            }
        }
        if (bestLength < 2) {
            bestStart = -1;
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.toString();
    }
}
