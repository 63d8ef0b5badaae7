package io.jsalt.cli.daemon;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Map;

/**
 * Salt's pre-flight port check: bind each port once and let go, so that a master whose ports are taken
 * says so before it writes anything, with Salt's message and exit code 4.
 */
final class PortCheck {
    private PortCheck() {}

    /** @param ports config key → port, checked in order */
    static void requireFree(String interfaceAddress, Map<String, Integer> ports) {
        for (Map.Entry<String, Integer> port : ports.entrySet()) {
            try (ServerSocket probe = new ServerSocket()) {
                probe.setReuseAddress(true);
                probe.bind(new InetSocketAddress(interfaceAddress, port.getValue()));
            } catch (IOException e) {
                throw new CliException(ExitCode.PORTS_UNAVAILABLE, "The ports are not available to bind: "
                        + interfaceAddress + ":" + port.getValue() + " (" + port.getKey() + "): " + e.getMessage());
            }
        }
    }
}
