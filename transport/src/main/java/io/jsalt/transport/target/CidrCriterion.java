package io.jsalt.transport.target;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code S@} / ipcidr: a single address or a network (Python's ip_network, strict: no host bits set),
 * matched against the minion's {@code ipv4} or {@code ipv6} grain (whichever the target's family is),
 * a list of addresses or one address.
 */
final class CidrCriterion implements Criterion {
    private final byte[] network;
    private final int prefix;
    private final String grain;

    CidrCriterion(String target) {
        String text = target == null ? "" : target.strip();
        int slash = text.indexOf('/');
        Optional<byte[]> address = IpLiteral.parse(slash < 0 ? text : text.substring(0, slash));
        if (address.isEmpty()) {
            throw new InvalidTargetException("invalid IP/CIDR target '" + target + "': expected an address or a network such as 10.0.0.0/8");
        }
        network = address.get();
        int bits = network.length * 8;
        if (slash < 0) {
            prefix = bits;
        } else {
            String len = text.substring(slash + 1);
            if (!len.matches("[0-9]{1,3}") || Integer.parseInt(len) > bits) {
                throw new InvalidTargetException("invalid IP/CIDR target '" + target + "': prefix length must be 0.." + bits);
            }
            prefix = Integer.parseInt(len);
            if (!Arrays.equals(network, masked(network, prefix))) {
                throw new InvalidTargetException("invalid IP/CIDR target '" + target + "': it has host bits set");
            }
        }
        grain = network.length == 4 ? "ipv4" : "ipv6";
    }

    @Override
    public Decision decide(MinionFacts facts) {
        if (!facts.knowsGrains()) {
            return Decision.UNKNOWN;
        }
        Object addresses = facts.grains().get(grain);
        List<?> candidates = addresses instanceof List<?> l ? l : addresses == null ? List.of() : List.of(addresses);
        for (Object a : candidates) {
            if (a instanceof String s && contains(stripZone(s))) {
                return Decision.MATCH;
            }
        }
        return Decision.NO_MATCH;
    }

    private boolean contains(String address) {
        Optional<byte[]> parsed = IpLiteral.parse(address);
        return parsed.isPresent() && parsed.get().length == network.length && Arrays.equals(masked(parsed.get(), prefix), network);
    }

    private static String stripZone(String address) {
        int pct = address.indexOf('%');
        return pct < 0 ? address.strip() : address.substring(0, pct).strip();
    }

    private static byte[] masked(byte[] address, int prefix) {
        byte[] out = address.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - 8 * i));
            out[i] &= (byte) (0xff << (8 - keep));
        }
        return out;
    }
}
