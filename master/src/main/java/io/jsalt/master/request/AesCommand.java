package io.jsalt.master.request;

import java.util.Map;

/**
 * A command that arrives under the session key. Its result is sent back encrypted with the request's
 * nonce, unless it is a {@link PrivateReply}, which carries its own encryption.
 */
@FunctionalInterface
public interface AesCommand {
    Object handle(Map<String, Object> load);
}
