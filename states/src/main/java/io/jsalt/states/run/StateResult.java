package io.jsalt.states.run;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one state function reports, as Salt's state returns: {@code result} is true (done, or nothing to do),
 * false (failed) or null (test mode: something would change).
 */
public record StateResult(Boolean result, Map<String, Object> changes, String comment) {

    public StateResult {
        changes = changes == null ? Map.of() : new LinkedHashMap<>(changes);
    }

    public static StateResult ok(String comment) {
        return new StateResult(true, Map.of(), comment);
    }

    public static StateResult changed(Map<String, Object> changes, String comment) {
        return new StateResult(true, changes, comment);
    }

    public static StateResult failed(String comment) {
        return new StateResult(false, Map.of(), comment);
    }

    /** Test mode: what would change, with Salt's {@code result: None}. */
    public static StateResult wouldChange(Map<String, Object> changes, String comment) {
        return new StateResult(null, changes, comment);
    }
}
