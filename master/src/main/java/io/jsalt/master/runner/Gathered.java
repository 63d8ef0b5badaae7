package io.jsalt.master.runner;

import java.util.List;
import java.util.Map;

/**
 * What a job published by a runner brought back: the minions it was sent to and the returns that came
 * within the timeout ({@code id -> return}, in arrival order; a value may be null).
 */
public record Gathered(String jid, List<String> minions, Map<String, Object> returns) {
    /** The expected minions that did not return, in the order they were expected. */
    public List<String> silent() {
        return minions.stream().filter(id -> !returns.containsKey(id)).toList();
    }
}
