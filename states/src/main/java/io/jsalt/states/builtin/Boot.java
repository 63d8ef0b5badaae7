package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whether a service starts at boot: Salt's {@code _enable} and {@code _disable} of salt/states/service.py, whose
 * comments end with what the service is doing now: running ({@code started} true), dead (false), or "in the desired
 * state" (null: the state did not start or stop it).
 */
final class Boot {
    private Boot() {
    }

    static StateResult enable(StateCall call, Boolean started, boolean result) {
        String name = call.name();
        if (!ServiceStates.bool(call, "service.available", name)) {
            return StateResult.failed("The named service " + name + " is not available");
        }
        if (ServiceStates.bool(call, "service.enabled", name)) {
            return new StateResult(result, Map.of(), "Service " + name + " is already enabled, and " + now(started));
        }
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "Service " + name + " set to be enabled");
        }
        String error = null;
        try {
            if (ServiceStates.bool(call, "service.enable", name)) {
                return new StateResult(result, changed(call, "service.enabled", false),
                        "Service " + name + " has been enabled, and " + now(started));
            }
        } catch (StatesException e) {
            error = e.getMessage();
        }
        String comment = "Failed when setting service " + name + " to start at boot, "
                + (Boolean.TRUE.equals(started) ? "but the service is running"
                : started == null ? "but the service was already running" : "and the service is dead");
        return StateResult.failed(error == null ? comment : comment + ". Additional information follows:\n\n" + error);
    }

    static StateResult disable(StateCall call, Boolean started, boolean result) {
        String name = call.name();
        if (!ServiceStates.bool(call, "service.available", name)) {
            return StateResult.ok("The named service " + name + " is not available");
        }
        if (ServiceStates.bool(call, "service.disabled", name)) {
            return new StateResult(result, Map.of(), "Service " + name + " is already disabled, and " + now(started));
        }
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "Service " + name + " set to be disabled");
        }
        if (ServiceStates.bool(call, "service.disable", name)) {
            return new StateResult(result, changed(call, "service.disabled", false),
                    "Service " + name + " has been disabled, and " + now(started));
        }
        return StateResult.failed("Failed when setting service " + name + " to not start at boot, "
                + (Boolean.TRUE.equals(started) ? "and is running"
                : started == null ? "but the service was already running" : "and the service is dead"));
    }

    private static String now(Boolean started) {
        return Boolean.TRUE.equals(started) ? "is running" : started == null ? "is in the desired state" : "is dead";
    }

    /** Salt's {@code {name: True}} when the boot setting really changed. */
    private static Map<String, Object> changed(StateCall call, String check, boolean before) {
        Map<String, Object> changes = new LinkedHashMap<>();
        if (ServiceStates.bool(call, check, call.name()) != before) {
            changes.put(call.name(), true);
        }
        return changes;
    }
}
