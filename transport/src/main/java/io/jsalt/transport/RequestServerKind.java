package io.jsalt.transport;

import java.util.Locale;

/**
 * Which implementation serves the request port ({@code request_server} in the master's config; a jsalt key,
 * Salt has none). Both speak the same ZMTP 3 to the same REQ and DEALER clients and hold them to the same
 * {@link RequestLimits}.
 */
public enum RequestServerKind {
    /** jsalt's own ZMTP server: one NIO selector thread that accepts, reads, hands off and writes. */
    NATIVE,
    /** A JeroMQ ROUTER owned by a router thread, with JeroMQ's own I/O thread beneath it. */
    JEROMQ;

    /** The key's value as a user writes it ({@code native} or {@code jeromq}). */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind named {@code value} ({@code native} or {@code jeromq}, any case); empty when it names neither. */
    public static java.util.Optional<RequestServerKind> parse(String value) {
        for (RequestServerKind kind : values()) {
            if (kind.configName().equalsIgnoreCase(value == null ? "" : value.trim())) {
                return java.util.Optional.of(kind);
            }
        }
        return java.util.Optional.empty();
    }
}
