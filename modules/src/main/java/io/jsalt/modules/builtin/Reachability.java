package io.jsalt.modules.builtin;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.net.HexAddress;
import io.jsalt.modules.builtin.net.PortProbe;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Salt's {@code network.connect}: a result and a sentence, never an exception for an unreachable host. */
final class Reachability {

    private Reachability() {
    }

    static Map<String, Object> connect(String host, Integer port, String proto, double timeout, String family) {
        if (host == null || host.isBlank()) {
            return result(false, "Required argument, host, is missing.");
        }
        if (port == null) {
            return result(false, "Required argument, port, is missing.");
        }
        if (port < 1 || port > 65535) {
            throw new CommandExecutionException("port must be between 1 and 65535, got " + port);
        }
        if (family != null && !family.equals("ipv4") && !family.equals("ipv6")) {
            throw new CommandExecutionException("family must be ipv4 or ipv6, got " + family);
        }
        boolean udp = "udp".equalsIgnoreCase(proto);
        String protoName = udp ? "udp" : "tcp";
        InetAddress address;
        try {
            address = resolve(NetworkModule.sanitizeHost(host), family);
        } catch (UnknownHostException e) {
            return result(false, "Unable to connect to " + host + " (" + host + ") on " + protoName + " port " + port);
        }
        String shown = HexAddress.text(address.getAddress());
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout * 1000));
        boolean reachable;
        try {
            reachable = PortProbe.reachable(address, port, udp, millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandExecutionException("interrupted; network.connect to " + host + " was abandoned", e);
        }
        if (reachable) {
            return result(true, "Successfully connected to " + host + " (" + shown + ") on " + protoName + " port " + port);
        }
        return result(false, "Unable to connect to " + host + " (" + shown + ") on " + protoName + " port " + port);
    }

    private static InetAddress resolve(String host, String family) throws UnknownHostException {
        for (InetAddress candidate : InetAddress.getAllByName(host)) {
            if (family == null || (family.equals("ipv4") && candidate instanceof Inet4Address)
                    || (family.equals("ipv6") && candidate instanceof Inet6Address)) {
                return candidate;
            }
        }
        throw new UnknownHostException(host + " has no " + family + " address");
    }

    private static Map<String, Object> result(boolean ok, String comment) {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("result", ok);
        ret.put("comment", comment);
        return ret;
    }
}
