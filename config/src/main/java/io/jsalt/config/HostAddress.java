package io.jsalt.config;

import java.util.regex.Pattern;

/**
 * A light check that a configured {@code interface} or {@code master} is an IPv4 literal, an IPv6 literal
 * (without brackets, optionally with a {@code %zone}) or a DNS host name. Nothing is looked up: a config
 * must load the same way with the network down; a name that does not resolve fails later, when used.
 */
public final class HostAddress {
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?");
    private static final Pattern NUMERIC = Pattern.compile("[0-9.]+");
    private static final Pattern HEX_GROUP = Pattern.compile("[0-9A-Fa-f]{1,4}");
    private static final Pattern ZONE = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final int MAX_NAME_LENGTH = 253;

    private HostAddress() {
    }

    public static boolean isValid(String host) {
        if (host == null || host.isEmpty() || host.length() > MAX_NAME_LENGTH) {
            return false;
        }
        if (host.indexOf(':') >= 0) {
            return isIpv6(host);
        }
        if (NUMERIC.matcher(host).matches()) {
            // 10.0.0.300 is a mistyped address, not a host name
            return isIpv4(host);
        }
        return isHostName(host);
    }

    /**
     * The host under {@code key}; a list is refused (a minion's list of masters is read by {@link Masters}).
     */
    public static String read(ConfigFile config, String key, String dflt) {
        String expected = "an IPv4 address, an IPv6 address or a host name";
        String host;
        try {
            host = config.string(key, dflt);
        } catch (ConfigException e) {
            throw config.refuse(key, expected);
        }
        if (!isValid(host)) {
            throw config.refuse(key, expected);
        }
        return host;
    }

    static boolean isIpv4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)
                    || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    static boolean isIpv6(String s) {
        String address = s;
        int percent = s.indexOf('%');
        if (percent >= 0) {
            if (!ZONE.matcher(s.substring(percent + 1)).matches()) {
                return false;
            }
            address = s.substring(0, percent);
        }
        int gap = address.indexOf("::");
        if (gap < 0) {
            return groups(address, true) == 8;
        }
        if (gap != address.lastIndexOf("::")) {
            return false;
        }
        int head = groups(address.substring(0, gap), false);
        int tail = groups(address.substring(gap + 2), true);
        return head >= 0 && tail >= 0 && head + tail <= 7;
    }

    /** The number of 16-bit groups in a colon-separated run (an IPv4 tail counts two), or -1 if malformed. */
    private static int groups(String run, boolean mayEndInIpv4) {
        if (run.isEmpty()) {
            return 0;
        }
        String[] parts = run.split(":", -1);
        int count = 0;
        for (int i = 0; i < parts.length; i++) {
            boolean last = i == parts.length - 1;
            if (HEX_GROUP.matcher(parts[i]).matches()) {
                count++;
            } else if (last && mayEndInIpv4 && isIpv4(parts[i])) {
                count += 2;
            } else {
                return -1;
            }
        }
        return count;
    }

    static boolean isHostName(String s) {
        // a single trailing dot is the DNS root and still names the same host
        String name = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
        if (name.isEmpty()) {
            return false;
        }
        for (String label : name.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }
}
