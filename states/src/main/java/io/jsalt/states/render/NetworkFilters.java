package io.jsalt.states.render;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Salt's IP filters (salt/utils/network.py): {@code is_ip}, {@code is_ipv4}, {@code is_ipv6}, and {@code ipaddr},
 * {@code ipv4}, {@code ipv6} which give back the valid addresses of a text or a list, normalised as Python prints
 * them; {@code options} keeps only those of a kind ({@code private}, {@code loopback}, {@code global}, ...).
 * {@code ipwrap} puts IPv6 addresses in brackets. Jinjava's own filters of these names are replaced.
 */
final class NetworkFilters {
    private static final Map<String, Predicate<IpAddress>> OPTIONS = Map.ofEntries(
            Map.entry("global", ip -> !ip.isPrivate()), Map.entry("public", ip -> !ip.isPrivate()),
            Map.entry("link-local", IpAddress::isLinkLocal), Map.entry("linklocal", IpAddress::isLinkLocal),
            Map.entry("ll", IpAddress::isLinkLocal), Map.entry("link_local", IpAddress::isLinkLocal),
            Map.entry("loopback", IpAddress::isLoopback), Map.entry("lo", IpAddress::isLoopback),
            Map.entry("multicast", IpAddress::isMulticast), Map.entry("private", IpAddress::isPrivate),
            Map.entry("reserved", IpAddress::isReserved), Map.entry("site-local", IpAddress::isSiteLocal),
            Map.entry("sl", IpAddress::isSiteLocal), Map.entry("site_local", IpAddress::isSiteLocal),
            Map.entry("unspecified", IpAddress::isUnspecified));

    private NetworkFilters() {
    }

    static List<SaltFilter> all() {
        return List.of(
                new SaltFilter("is_ip", (value, args) -> check(value, 4, options(args)) != null
                        || check(value, 6, options(args)) != null),
                new SaltFilter("is_ipv4", (value, args) -> check(value, 4, options(args)) != null),
                new SaltFilter("is_ipv6", (value, args) -> check(value, 6, options(args)) != null),
                new SaltFilter("ipv4", (value, args) -> filter(value, 4, options(args))),
                new SaltFilter("ipv6", (value, args) -> filter(value, 6, options(args))),
                new SaltFilter("ipaddr", (value, args) -> {
                    Object v4 = filter(value, 4, options(args));
                    Object v6 = filter(value, 6, options(args));
                    if (v4 instanceof List<?> a && v6 instanceof List<?> b) {
                        List<Object> both = new ArrayList<>(a);
                        both.addAll(b);
                        return both;
                    }
                    return PythonValues.truthy(v4) ? v4 : v6; // Salt's "ipv4_obj or ipv6_obj"
                }),
                new SaltFilter("ipwrap", (value, args) -> {
                    if (value instanceof Collection<?> c) {
                        return c.stream().map(NetworkFilters::wrap).toList();
                    }
                    return wrap(value);
                }));
    }

    private static String options(SaltFilter.Args args) {
        return args.text(0, "options", null);
    }

    /** Salt's {@code _is_ipv}: the address as Python prints it when it is of that version and kind, else null. */
    private static String check(Object value, int version, String options) {
        IpAddress ip = IpAddress.parse(value).orElse(null);
        if (ip == null || ip.version() != version) {
            return null;
        }
        if (options != null && !options.isEmpty()) {
            for (String option : options.split(",")) {
                Predicate<IpAddress> kind = OPTIONS.get(option.strip());
                if (kind != null && !kind.test(ip)) {
                    return null;
                }
            }
        }
        return ip.toString();
    }

    /** Salt's {@code _ipv_filter}: a text gives its address or None; a list the valid ones. */
    private static Object filter(Object value, int version, String options) {
        if (value instanceof CharSequence) {
            return check(value, version, options);
        }
        if (value instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>();
            for (Object item : c) {
                String ok = check(item, version, options);
                if (ok != null) {
                    out.add(ok);
                }
            }
            return out;
        }
        return null;
    }

    private static Object wrap(Object value) {
        return IpAddress.parse(value).filter(ip -> ip.version() == 6 && ip.prefix() == null)
                .map(ip -> (Object) ("[" + ip + "]"))
                .orElse(value);
    }
}
