package io.jsalt.api.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * salt-api's {@code rest_cherrypy:authorized_ips}: when the list is not empty, only a client whose address
 * is one of them is served; any other gets 403 "Bad IP". salt-api compares the connection's address with the
 * entries as strings ({@code rem_ip not in auth_ip_list}), so it knows single addresses only, no networks;
 * here entries and the client's address are compared as addresses ({@code ::1} and {@code 0:0:0:0:0:0:0:1}
 * are one), and an entry that is not an address literal (a network, a host name) is a config error rather
 * than an entry that silently never matches.
 */
public final class AuthorizedIps {
    /** Every client is served (the key absent or empty, as salt-api). */
    public static final AuthorizedIps ANY = new AuthorizedIps(List.of());

    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    private final List<InetAddress> allowed;

    private AuthorizedIps(List<InetAddress> allowed) {
        this.allowed = List.copyOf(allowed);
    }

    /** The list read from the config; throws {@link IllegalArgumentException} naming the first entry that is no address. */
    public static AuthorizedIps of(List<String> entries) {
        List<InetAddress> addresses = new ArrayList<>();
        for (String entry : entries) {
            addresses.add(literal(entry.strip()).orElseThrow(() -> new IllegalArgumentException(
                    "'" + entry + "' is not an IP address (salt-api compares single addresses: no networks, no names)")));
        }
        return new AuthorizedIps(addresses);
    }

    /** Whether a client at {@code remote} is served. */
    public boolean allows(InetAddress remote) {
        return allowed.isEmpty() || (remote != null && allowed.contains(unmapped(remote)));
    }

    public boolean restricted() {
        return !allowed.isEmpty();
    }

    /** The address of an IPv4 or IPv6 literal, never asking DNS (only text that is a literal reaches the JDK's parser). */
    private static java.util.Optional<InetAddress> literal(String text) {
        boolean v4 = IPV4.matcher(text).matches();
        boolean v6 = text.indexOf(':') >= 0 && IPV6_CHARS.matcher(text).matches();
        if (!v4 && !v6) {
            return java.util.Optional.empty();
        }
        try {
            return java.util.Optional.of(unmapped(InetAddress.getByName(text)));
        } catch (UnknownHostException e) {
            return java.util.Optional.empty();
        }
    }

    /** An IPv4-mapped IPv6 address (::ffff:a.b.c.d, as a dual-stack socket reports IPv4 clients) as its IPv4 address. */
    private static InetAddress unmapped(InetAddress address) {
        byte[] b = address.getAddress();
        if (b.length == 16) {
            boolean mapped = b[10] == (byte) 0xff && b[11] == (byte) 0xff;
            for (int i = 0; i < 10 && mapped; i++) {
                mapped = b[i] == 0;
            }
            if (mapped) {
                try {
                    return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e); // four bytes are always an address
                }
            }
        }
        return address;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AuthorizedIps ips && new java.util.HashSet<>(ips.allowed).equals(new java.util.HashSet<>(allowed));
    }

    @Override
    public int hashCode() {
        return new java.util.HashSet<>(allowed).hashCode();
    }

    @Override
    public String toString() {
        return allowed.stream().map(InetAddress::getHostAddress).toList().toString();
    }
}
