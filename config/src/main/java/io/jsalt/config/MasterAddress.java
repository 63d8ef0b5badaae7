package io.jsalt.config;

import java.util.Objects;

/**
 * One master a minion signs in to: its host and request port. Salt writes it {@code host}, {@code host:port},
 * {@code [v6]:port} or a bare IPv6 literal (its {@code parse_host_port}); without a port the minion's
 * {@code master_port} applies. The publish port is the one the master names in its sign-in answer.
 */
public record MasterAddress(String host, int port) {
    public MasterAddress {
        Objects.requireNonNull(host, "host");
        if (!HostAddress.isValid(host)) {
            throw new IllegalArgumentException("not a host: " + host);
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("not a port: " + port);
        }
    }

    /**
     * Parses Salt's forms; null when {@code text} is none of them (the caller refuses it with the key's name).
     */
    static MasterAddress parse(String text, int defaultPort) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String host = text;
        int port = defaultPort;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                return null;
            }
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    return null;
                }
                port = port(rest.substring(1));
            }
            if (!HostAddress.isIpv6(host)) {
                return null;
            }
        } else if (text.chars().filter(c -> c == ':').count() == 1) {
            int colon = text.indexOf(':');
            host = text.substring(0, colon);
            port = port(text.substring(colon + 1));
        }
        if (port < 1 || !HostAddress.isValid(host)) {
            return null;
        }
        return new MasterAddress(host, port);
    }

    private static int port(String digits) {
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        int port = Integer.parseInt(digits);
        return port <= 65_535 ? port : -1;
    }

    /** As the minion's logs name it: {@code host:port}, an IPv6 host in brackets. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
