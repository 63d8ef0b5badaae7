package io.jsalt.states.compile;

import java.util.Optional;

/** The requisites this compiler knows; each also has an {@code _in} form that points the other way. */
public enum RequisiteKind {
    /** Run after the target; fail if it failed. */
    REQUIRE("require"),
    /** As require; and when the target changed something, run the state's {@code mod_watch}. */
    WATCH("watch"),
    /** Run only if a target changed something. */
    ONCHANGES("onchanges"),
    /** Run only if a target failed. */
    ONFAIL("onfail"),
    /**
     * Run before the target, and only if the target, tried in test mode first, would change something; if this
     * state then fails, the target does not run.
     */
    PREREQ("prereq"),
    /** The other side of {@link #PREREQ}, on its target: wait for the state that prereqs it. Never written. */
    PREREQUIRED("prerequired"),
    /** No ordering; at the end of the run, the state's {@code mod_watch} runs if a target changed something. */
    LISTEN("listen");

    private final String key;

    RequisiteKind(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    /** The kind an argument key names ({@code require} or {@code require_in}), if any. */
    static Optional<RequisiteKind> of(String argKey) {
        String base = argKey.endsWith("_in") ? argKey.substring(0, argKey.length() - 3) : argKey;
        for (RequisiteKind kind : values()) {
            if (kind != PREREQUIRED && kind.key.equals(base)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /** Requisites of Salt that this compiler refuses by name rather than ignoring them. */
    static boolean unsupported(String argKey) {
        String base = argKey.endsWith("_in") ? argKey.substring(0, argKey.length() - 3) : argKey;
        return base.equals("use") || base.endsWith("_any");
    }
}
