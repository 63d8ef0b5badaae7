package io.jsalt.master.request;

import java.util.Map;

/**
 * A command that arrives under the session key. Its result is sent back encrypted with the request's
 * nonce, unless it is a {@link PrivateReply}, which carries its own encryption.
 */
@FunctionalInterface
public interface AesCommand {
    /**
     * @param load  the decrypted load, without its {@code nonce} (Salt's server pops it before dispatch)
     * @param nonce the request's nonce, or null: only replies that sign it themselves need it
     */
    Object handle(Map<String, Object> load, String nonce);
}
