package io.jsalt.cli.daemon;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PortCheckTest {
    @Test
    void aTakenPortIsNamedWithSaltsMessageAndExitCode4() throws Exception {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
                ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int freePort = free.getLocalPort();
            free.close();
            Map<String, Integer> ports = new LinkedHashMap<>();
            ports.put("publish_port", freePort);
            ports.put("ret_port", taken.getLocalPort());

            assertThatThrownBy(() -> PortCheck.requireFree("127.0.0.1", ports))
                    .isInstanceOf(CliException.class)
                    .hasMessageStartingWith("The ports are not available to bind: 127.0.0.1:" + taken.getLocalPort() + " (ret_port)")
                    .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((CliException) e).exitCode())
                            .isEqualTo(ExitCode.PORTS_UNAVAILABLE));
        }
    }

    @Test
    void freePortsPassAndStayFree() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        assertThatCode(() -> PortCheck.requireFree("127.0.0.1", Map.of("publish_port", port))).doesNotThrowAnyException();
        try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            // bound again: the check let go of it
        }
    }
}
