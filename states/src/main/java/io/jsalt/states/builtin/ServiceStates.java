package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code service.running}, {@code dead}, {@code enabled}, {@code disabled} and their {@code mod_watch}
 * (salt/states/service.py), through the minion's {@code service} execution module, which picks systemd or the SysV
 * init scripts as Salt's loader does. Comments and changes ({@code {name: True}}) are Salt's.
 */
public final class ServiceStates {
    private static final List<String> RUN_ARGS = List.of("enable", "sig", "reload", "force", "full_restart");

    private ServiceStates() {
    }

    public static void register(StateFunctions functions) {
        functions.add("service.running", ServiceStates::running)
                .add("service.dead", ServiceStates::dead)
                .add("service.enabled", ServiceStates::enabled)
                .add("service.disabled", ServiceStates::disabled)
                .addWatch("service.running", call -> modWatch(call, "running"))
                .addWatch("service.dead", call -> modWatch(call, "dead"))
                .addWatch("service.enabled", call -> modWatch(call, "enabled"))
                .addWatch("service.disabled", call -> modWatch(call, "disabled"));
    }

    static StateResult running(StateCall call) {
        return toggle(call, true);
    }

    static StateResult dead(StateCall call) {
        return toggle(call, false);
    }

    /** running (start) and dead (stop), with their optional {@code enable}. */
    private static StateResult toggle(StateCall call, boolean start) {
        String name = call.name();
        if (call.args().containsKey("enabled")) {
            return StateResult.failed("Service " + name + " uses non-existent option \"enabled\".  Perhaps \"enable\" "
                    + "option was intended?");
        }
        call.allowOnly(start ? "service.running" : "service.dead", RUN_ARGS);
        Boolean enable = call.args().get("enable") == null ? null : call.flag("enable", false);
        if (!bool(call, "service.available", name)) {
            if (call.test()) {
                return StateResult.wouldChange(Map.of(), "Service " + name + " not present; if created in this state "
                        + "run, it would have been " + (start ? "started" : "stopped"));
            }
            return start ? StateResult.failed("The named service " + name + " is not available")
                    : StateResult.ok("The named service " + name + " is not available");
        }
        boolean wasRunning = status(call);
        boolean wasEnabled = bool(call, "service.enabled", name);
        if (wasRunning == start) {
            StateResult done = StateResult.ok(start ? "The service " + name + " is already running"
                    : "The service " + name + " is already dead");
            if (Boolean.TRUE.equals(enable) && !wasEnabled) {
                return Boot.enable(call, null, true);
            }
            if (Boolean.FALSE.equals(enable) && wasEnabled) {
                return Boot.disable(call, null, true);
            }
            return done;
        }
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), start ? "Service " + name + " is set to start"
                    : "Service " + name + " is set to be killed");
        }
        boolean ok;
        try {
            ok = bool(call, start ? "service.start" : "service.stop", name);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
        if (!ok) {
            StateResult failed = StateResult.failed("Service " + name + (start ? " failed to start" : " failed to die"));
            if (enable != null) {
                return enable ? Boot.enable(call, !start, false) : Boot.disable(call, !start, false);
            }
            return failed;
        }
        boolean running = status(call);
        boolean enabledNow = bool(call, "service.enabled", name);
        Map<String, Object> changes = new LinkedHashMap<>();
        if (wasEnabled != enabledNow || wasRunning != running) {
            changes.put(name, running);
        }
        boolean result = running == start;
        String comment = start ? (running ? "Started service " + name : "Service " + name + " failed to start")
                : (running ? "Service " + name + " failed to die" : "Service " + name + " was killed");
        if (enable != null) {
            StateResult boot = enable ? Boot.enable(call, running, result) : Boot.disable(call, running, result);
            // Salt's ret.update: the boot step's comment and result win, the changes merge
            Map<String, Object> merged = new LinkedHashMap<>(changes);
            merged.putAll(boot.changes());
            return new StateResult(boot.result(), merged, boot.comment());
        }
        return new StateResult(result, changes, comment);
    }

    static StateResult enabled(StateCall call) {
        call.allowOnly("service.enabled", List.of());
        StateResult r = Boot.enable(call, null, true);
        if (call.test() && r.comment().equals("The named service " + call.name() + " is not available")) {
            return StateResult.wouldChange(Map.of(), "Service " + call.name() + " not present; if created in this "
                    + "state run, it would have been enabled");
        }
        return r;
    }

    static StateResult disabled(StateCall call) {
        call.allowOnly("service.disabled", List.of());
        return Boot.disable(call, null, true);
    }

    /** Salt's mod_watch: a watched change restarts (or reloads) a running service and stops a dead one. */
    static StateResult modWatch(StateCall call, String sfun) {
        String name = call.name();
        String function;
        String verb;
        String done;
        if (sfun.equals("dead")) {
            if (!status(call)) {
                return StateResult.ok("Service is already stopped");
            }
            function = "service.stop";
            verb = "stop";
            done = "stopped";
        } else if (sfun.equals("running")) {
            if (status(call)) {
                if (call.flag("reload", false)) {
                    boolean force = call.flag("force", false);
                    function = force ? "service.force_reload" : "service.reload";
                    verb = force ? "forcefully reload" : "reload";
                } else {
                    function = "service.restart";
                    verb = "restart";
                }
            } else {
                function = "service.start";
                verb = "start";
            }
            done = verb + "ed";
        } else {
            return StateResult.failed("Unable to trigger watch for service." + sfun);
        }
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "Service is set to be " + done);
        }
        if (verb.equals("start")) {
            bool(call, "service.stop", name); // Salt stops a service before a watch starts it
        }
        boolean result;
        try {
            result = bool(call, function, name);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
        return new StateResult(result, Map.of(name, result), result ? "Service " + done : "Failed to " + verb
                + " the service");
    }

    private static boolean status(StateCall call) {
        Map<String, Object> kwargs = new LinkedHashMap<>();
        if (call.string("sig") != null) {
            kwargs.put("sig", call.string("sig"));
        }
        return Boolean.TRUE.equals(call.salt().call("service.status", List.of(call.name()), kwargs));
    }

    static boolean bool(StateCall call, String fun, String name) {
        return Boolean.TRUE.equals(call.salt().call(fun, List.of(name), Map.of()));
    }
}
