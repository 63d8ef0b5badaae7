package io.jsalt.master.request;

import java.util.Map;

/** A command that arrives unencrypted ({@code enc: clear}); it answers with the whole reply frame. */
@FunctionalInterface
public interface ClearCommand {
    byte[] handle(Map<String, Object> load);
}
