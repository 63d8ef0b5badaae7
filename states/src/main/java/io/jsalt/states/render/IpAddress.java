package io.jsalt.states.render;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * An IPv4 or IPv6 address (or interface, {@code addr/prefix}) as Python's {@code ipaddress} reads and prints it, with
 * the properties Salt's network filters ask about ({@code is_private}, {@code is_loopback}, ...; Python 3.11's tables).
 */
record IpAddress(int version, BigInteger value, Integer prefix, String scope) {
    private static final List<String> PRIVATE_V4 = List.of("0.0.0.0/8", "10.0.0.0/8", "127.0.0.0/8", "169.254.0.0/16",
            "172.16.0.0/12", "192.0.0.0/29", "192.0.0.170/31", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15",
            "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32");
    private static final List<String> PRIVATE_V6 = List.of("::1/128", "::/128", "::ffff:0:0/96", "100::/64",
            "2001::/23", "2001:2::/48", "2001:db8::/32", "2001:10::/28", "fc00::/7", "fe80::/10");
    private static final List<String> RESERVED_V6 = List.of("::/8", "100::/8", "200::/7", "400::/6", "800::/5",
            "1000::/4", "4000::/3", "6000::/3", "8000::/3", "a000::/3", "c000::/3", "e000::/4", "f000::/5",
            "f800::/6", "fe00::/9");

    /** {@code ipaddress.ip_address(text)}, else {@code ipaddress.ip_interface(text)}; empty when neither reads it. */
    static Optional<IpAddress> parse(Object value) {
        if (!(value instanceof CharSequence cs)) {
            return Optional.empty();
        }
        String text = cs.toString();
        int slash = text.indexOf('/');
        String addr = slash < 0 ? text : text.substring(0, slash);
        String scope = null;
        int percent = addr.indexOf('%');
        if (percent >= 0) {
            // Python 3.9+: an IPv6 scope id (fe80::1%eth0), kept as written
            scope = addr.substring(percent + 1);
            addr = addr.substring(0, percent);
            if (scope.isEmpty() || scope.indexOf('%') >= 0) {
                return Optional.empty();
            }
        }
        Optional<BigInteger> v4 = v4(addr);
        if (scope != null && v4.isPresent()) {
            return Optional.empty();
        }
        String zone = scope;
        int version = v4.isPresent() ? 4 : 6;
        Optional<BigInteger> parsed = v4.isPresent() ? v4 : v6(addr);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        if (slash < 0) {
            return Optional.of(new IpAddress(version, parsed.get(), null, zone));
        }
        Optional<Integer> prefix = prefix(text.substring(slash + 1), version);
        return prefix.map(p -> new IpAddress(version, parsed.get(), p, zone));
    }

    private static Optional<BigInteger> v4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return Optional.empty();
        }
        long v = 0;
        for (String p : parts) {
            // Python 3.9.5+: decimal only, at most 3 digits, no leading zero
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')
                    || p.length() > 1 && p.startsWith("0")) {
                return Optional.empty();
            }
            int octet = Integer.parseInt(p);
            if (octet > 255) {
                return Optional.empty();
            }
            v = v << 8 | octet;
        }
        return Optional.of(BigInteger.valueOf(v));
    }

    private static Optional<BigInteger> v6(String s) {
        if (s.isEmpty()) {
            return Optional.empty();
        }
        String[] halves = s.split("::", -1);
        if (halves.length > 2) {
            return Optional.empty();
        }
        List<Integer> head = groups(halves[0]);
        List<Integer> tail = halves.length == 2 ? groups(halves[1]) : List.of();
        if (head == null || tail == null) {
            return Optional.empty();
        }
        int total = head.size() + tail.size();
        if (halves.length == 1 ? total != 8 : total > 7) {
            return Optional.empty();
        }
        BigInteger v = BigInteger.ZERO;
        for (int g : head) {
            v = v.shiftLeft(16).or(BigInteger.valueOf(g));
        }
        v = v.shiftLeft(16 * (8 - total));
        for (int g : tail) {
            v = v.shiftLeft(16).or(BigInteger.valueOf(g));
        }
        return Optional.of(v);
    }

    /** The 16-bit groups of one side of '::' (an IPv4 tail counts two); null when malformed. */
    private static List<Integer> groups(String side) {
        List<Integer> out = new java.util.ArrayList<>();
        if (side.isEmpty()) {
            return out;
        }
        String[] parts = side.split(":", -1);
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (i == parts.length - 1 && p.contains(".")) {
                Optional<BigInteger> tail = v4(p);
                if (tail.isEmpty()) {
                    return null;
                }
                long t = tail.get().longValue();
                out.add((int) (t >> 16));
                out.add((int) (t & 0xffff));
            } else if (p.isEmpty() || p.length() > 4 || !p.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                return null;
            } else {
                out.add(Integer.parseInt(p, 16));
            }
        }
        return out;
    }

    private static Optional<Integer> prefix(String s, int version) {
        int bits = version == 4 ? 32 : 128;
        if (!s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9') && s.length() <= 3) {
            int p = Integer.parseInt(s);
            return p <= bits ? Optional.of(p) : Optional.empty();
        }
        if (version == 4) {
            // a netmask (255.255.0.0) or a hostmask (0.0.255.255), as Python reads them
            return v4(s).flatMap(mask -> {
                long m = mask.longValue();
                for (int p = 0; p <= 32; p++) {
                    long net = p == 0 ? 0 : (0xffffffffL << (32 - p)) & 0xffffffffL;
                    if (m == net || m == (~net & 0xffffffffL)) {
                        return Optional.of(p);
                    }
                }
                return Optional.empty();
            });
        }
        return Optional.empty();
    }

    /** Python's {@code str()}: dotted, or RFC 5952's compressed form; {@code /prefix} for an interface. */
    @Override
    public String toString() {
        String addr = (version == 4 ? dotted() : compressed()) + (scope == null ? "" : "%" + scope);
        return prefix == null ? addr : addr + "/" + prefix;
    }

    private String dotted() {
        long v = value.longValue();
        return (v >> 24 & 255) + "." + (v >> 16 & 255) + "." + (v >> 8 & 255) + "." + (v & 255);
    }

    private String compressed() {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = value.shiftRight(16 * (7 - i)).intValue() & 0xffff;
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen && j - i > 1) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append(i == 0 ? "::" : ":");
                i += bestLen - 1;
                continue;
            }
            out.append(Integer.toHexString(g[i]));
            if (i < 7) {
                out.append(':');
            }
        }
        return out.toString();
    }

    private boolean in(String network) {
        IpAddress net = parse(network).orElseThrow();
        int bits = version == 4 ? 32 : 128;
        int shift = bits - net.prefix();
        return net.version() == version && value.shiftRight(shift).equals(net.value().shiftRight(shift));
    }

    boolean isPrivate() {
        return (version == 4 ? PRIVATE_V4 : PRIVATE_V6).stream().anyMatch(this::in);
    }

    boolean isLoopback() {
        return version == 4 ? in("127.0.0.0/8") : value.equals(BigInteger.ONE);
    }

    boolean isMulticast() {
        return in(version == 4 ? "224.0.0.0/4" : "ff00::/8");
    }

    boolean isLinkLocal() {
        return in(version == 4 ? "169.254.0.0/16" : "fe80::/10");
    }

    boolean isReserved() {
        return version == 4 ? in("240.0.0.0/4") : RESERVED_V6.stream().anyMatch(this::in);
    }

    boolean isSiteLocal() {
        return version == 6 && in("fec0::/10");
    }

    boolean isUnspecified() {
        return value.signum() == 0;
    }
}
