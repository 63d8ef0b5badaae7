package io.jsalt.master.request;

import io.jsalt.transport.codec.SaltPack;
import java.util.Map;

/**
 * The clear {@code ping} command (in Salt's list of clear commands): answers {@code True} and nothing
 * else, so a client can tell that the workers serve; it reveals nothing a connect would not.
 */
public final class PingHandler implements ClearCommand {
    private static final byte[] TRUE = SaltPack.pack(Boolean.TRUE);

    @Override
    public byte[] handle(Map<String, Object> load) {
        return TRUE.clone();
    }
}
