package io.jsalt.transport.target;

import java.util.Optional;

/**
 * IP address literals parsed as Python's ipaddress module does, without ever asking DNS (which
 * {@link java.net.InetAddress#getByName} would for anything that is not a literal): IPv4 as four decimal
 * octets without leading zeros, IPv6 in its full, compressed ({@code ::}) or IPv4-suffixed forms.
 */
final class IpLiteral {
    private IpLiteral() {}

    /** The address's bytes (4 or 16), or empty when {@code text} is not an address literal. */
    static Optional<byte[]> parse(String text) {
        if (text == null || text.isEmpty() || text.length() > 45) {
            return Optional.empty();
        }
        return text.indexOf(':') >= 0 ? parseV6(text) : parseV4(text);
    }

    static Optional<byte[]> parseV4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return Optional.empty();
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')
                    || (p.length() > 1 && p.charAt(0) == '0')) {
                return Optional.empty();
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return Optional.empty();
            }
            out[i] = (byte) v;
        }
        return Optional.of(out);
    }

    private static Optional<byte[]> parseV6(String text) {
        int gap = text.indexOf("::");
        if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) {
            return Optional.empty();
        }
        String head = gap >= 0 ? text.substring(0, gap) : text;
        String tail = gap >= 0 ? text.substring(gap + 2) : "";
        byte[] v4 = null;
        // an IPv4 suffix ("::ffff:10.0.0.1") stands for the last two groups
        String last = gap >= 0 ? tail : head;
        int lastColon = last.lastIndexOf(':');
        String lastGroup = last.substring(lastColon + 1);
        if (lastGroup.contains(".")) {
            Optional<byte[]> parsed = parseV4(lastGroup);
            if (parsed.isEmpty()) {
                return Optional.empty();
            }
            v4 = parsed.get();
            String rest = lastColon < 0 ? "" : last.substring(0, lastColon);
            if (gap >= 0) {
                tail = rest;
            } else {
                head = rest;
            }
        }
        int[] headGroups = groups(head);
        int[] tailGroups = groups(tail);
        if (headGroups == null || tailGroups == null) {
            return Optional.empty();
        }
        int explicit = headGroups.length + tailGroups.length + (v4 == null ? 0 : 2);
        if (gap < 0 ? explicit != 8 : explicit > 7) {
            return Optional.empty();
        }
        byte[] out = new byte[16];
        int at = 0;
        for (int g : headGroups) {
            out[at++] = (byte) (g >> 8);
            out[at++] = (byte) g;
        }
        at = 16 - (v4 == null ? 0 : 4) - 2 * tailGroups.length;
        for (int g : tailGroups) {
            out[at++] = (byte) (g >> 8);
            out[at++] = (byte) g;
        }
        if (v4 != null) {
            System.arraycopy(v4, 0, out, 12, 4);
        }
        return Optional.of(out);
    }

    /** The 16-bit groups of a colon-separated run; an empty run has none; null when malformed. */
    private static int[] groups(String run) {
        if (run.isEmpty()) {
            return new int[0];
        }
        String[] parts = run.split(":", -1);
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 4) {
                return null;
            }
            for (int k = 0; k < p.length(); k++) {
                if (Character.digit(p.charAt(k), 16) < 0) {
                    return null;
                }
            }
            out[i] = Integer.parseInt(p, 16);
        }
        return out;
    }
}
