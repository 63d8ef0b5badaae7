package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Salt's {@code supervisord.running}, {@code supervisord.dead} and their {@code mod_watch}
 * (salt/states/supervisord.py), also as {@code supervisor.running} and {@code supervisor.dead}, through the
 * minion's {@code supervisord} execution module (the minion's own supervisor, not a supervisorctl): the state
 * never reaches into the supervisor itself. Salt's comments, changes ({@code {name: "Starting: app"}}) and its
 * reading of supervisorctl's lines ({@code ERROR (already started)} is a success).
 *
 * <p>jsalt's additions: Supervisor program keys given to {@code running} ({@code command}, {@code autorestart},
 * ...) define the program first, as {@code supervisor.add} does (changed keys restart it, the same keys touch
 * nothing); Salt's {@code user}, {@code conf_file} and {@code bin_env}, which pick a supervisorctl, are refused
 * (there is none), except {@code user} naming the minion's own user. Where Salt's {@code dead} looks for
 * {@code ERROR} in a dictionary's keys (and never finds it), jsalt reads the stop's answer.
 */
public final class SupervisorStates {
    /** Salt's arguments of supervisord.running; any other is a program key. */
    private static final Set<String> RUNNING_ARGS = Set.of("restart", "update", "user", "conf_file", "bin_env");
    private static final List<String> DEAD_ARGS = List.of("user", "conf_file", "bin_env");
    /** supervisorctl answers that Salt does not count as failures. */
    private static final List<String> BENIGN = List.of("already started", "not running", "process group already active");

    private SupervisorStates() {
    }

    public static void register(StateFunctions functions) {
        for (String module : List.of("supervisord", "supervisor")) {
            functions.add(module + ".running", call -> running(call, call.flag("restart", false)))
                    .add(module + ".dead", SupervisorStates::dead)
                    // Salt's mod_watch is running() with restart=True; a dead program has no watch (it stays dead)
                    .addWatch(module + ".running", call -> running(call, call.flag("restart", true)));
        }
    }

    static StateResult running(StateCall call, boolean restart) {
        String name = call.name().endsWith(":*") ? call.name().substring(0, call.name().length() - 1) : call.name();
        String refused = refusedArgs(call);
        if (refused != null) {
            return StateResult.failed(refused);
        }
        if (!call.salt().has("supervisord.status")) {
            return StateResult.failed("Supervisord module not activated. Do you need to install supervisord?");
        }
        Map<String, Object> programKeys = new LinkedHashMap<>(call.args());
        programKeys.keySet().removeAll(RUNNING_ARGS);
        boolean update = call.flag("update", false);
        try {
            List<String> changes = new ArrayList<>();
            boolean justUpdated = false;
            boolean fresh = false; // defined by this call: started by the add, not to be restarted now
            if (!programKeys.isEmpty()) {
                if (call.test()) {
                    return StateResult.wouldChange(Map.of(), "Program " + name + " will be defined (supervisor.add) and started");
                }
                String added = text(call, "supervisord.add", List.of(name), programKeys);
                if (added.contains("ERROR")) {
                    return StateResult.failed(added);
                }
                if (!added.endsWith(": unchanged")) {
                    changes.add("Defined program: " + name + " (" + added.replace('\n', ',') + ")");
                    justUpdated = added.contains(name + ": updated");
                    fresh = true;
                }
            }
            Map<String, String> all = status(call);
            Set<String> groups = groups(all);
            Map<String, Boolean> matches = new LinkedHashMap<>();
            if (all.containsKey(name)) {
                matches.put(name, all.get(name).equalsIgnoreCase("running"));
            } else if (groups.contains(name)) {
                all.forEach((p, state) -> {
                    if (p.startsWith(name)) {
                        matches.put(p, state.equalsIgnoreCase("running"));
                    }
                });
            }
            boolean toAdd = matches.isEmpty();
            if (call.test()) {
                return testRunning(name, matches, toAdd);
            }
            String comment = "";
            boolean result = true;
            if (update) {
                String answer = text(call, "supervisord.update", List.of(), Map.of());
                comment = "Updating supervisor";
                if (failure(answer)) {
                    comment = answer;
                    result = false;
                }
                justUpdated |= answer.contains(name + ": updated");
            } else if (toAdd) {
                text(call, "supervisord.reread", List.of(), Map.of());
                String group = name.endsWith(":") ? name.substring(0, name.length() - 1) : name;
                String answer = text(call, "supervisord.add", List.of(group), Map.of());
                comment = "Adding service: " + name;
                if (failure(answer)) {
                    comment = answer;
                    result = false;
                }
                changes.add("Adding service: " + name);
            }
            String type = groups.contains(name) ? " group" : all.containsKey(name) ? " service" : "";
            Boolean stopped = groups.contains(name) ? (Boolean) all.entrySet().stream()
                    .anyMatch(e -> e.getKey().startsWith(name) && isStopped(e.getValue()))
                    : all.containsKey(name) ? (Boolean) isStopped(all.get(name)) : null;
            if (Boolean.FALSE.equals(stopped)) {
                if (restart && !justUpdated && !fresh) {
                    String answer = text(call, "supervisord.restart", List.of(name), Map.of());
                    comment = "Restarting" + type + ": " + name;
                    if (failure(answer)) {
                        comment = answer;
                        result = false;
                    }
                    changes.add("Restarting" + type + ": " + name);
                } else {
                    comment = (justUpdated ? "Not starting updated" : "Not starting already running") + type + ": " + name;
                }
            } else if (!justUpdated) {
                String answer = text(call, "supervisord.start", List.of(name), Map.of());
                comment = "Starting" + type + ": " + name;
                if (failure(answer)) {
                    comment = answer;
                    result = false;
                }
                changes.add("Starting" + type + ": " + name);
            }
            Map<String, Object> changed = result && !changes.isEmpty() ? Map.of(name, String.join(" ", changes)) : Map.of();
            return new StateResult(result, changed, comment);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
    }

    private static StateResult testRunning(String name, Map<String, Boolean> matches, boolean toAdd) {
        if (toAdd) {
            return StateResult.wouldChange(Map.of(), (name.endsWith(":") ? "Group '" + name + "'" : "Service " + name)
                    + " will be added and started");
        }
        List<String> toStart = matches.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
        if (toStart.isEmpty()) {
            return StateResult.ok(name.endsWith(":") ? "All services in group '" + name + "' are already running"
                    : "Service " + name + " is already running");
        }
        if (!name.endsWith(":")) {
            return StateResult.wouldChange(Map.of(), "Service " + name + " will be started");
        }
        return StateResult.wouldChange(Map.of(), toStart.size() == matches.size()
                ? "All services in group '" + name + "' will be started"
                : "The following services will be started: " + String.join(" ", toStart));
    }

    static StateResult dead(StateCall call) {
        String name = call.name();
        try {
            call.allowOnly("supervisord.dead", DEAD_ARGS);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
        String refused = refusedArgs(call);
        if (refused != null) {
            return StateResult.failed(refused);
        }
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "Service " + name + " is set to be stopped");
        }
        if (!call.salt().has("supervisord.status")) {
            return StateResult.failed("Supervisord module not activated. Do you need to install supervisord?");
        }
        try {
            Map<String, String> all = status(call);
            Set<String> groups = groups(all);
            boolean stopped;
            if (groups.contains(name)) {
                stopped = all.entrySet().stream().anyMatch(e -> e.getKey().startsWith(name) && isStopped(e.getValue()));
            } else if (all.containsKey(name)) {
                stopped = isStopped(all.get(name));
            } else {
                return StateResult.ok("Service " + name + " doesn't exist");
            }
            if (stopped) {
                return StateResult.ok("Service " + name + " is not running");
            }
            String comment = "Stopping service: " + name;
            String answer = text(call, "supervisord.stop", List.of(name), Map.of());
            if (failure(answer)) {
                return new StateResult(false, Map.of(name, comment), answer);
            }
            return StateResult.changed(Map.of(name, comment), comment);
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
    }

    /** Salt's arguments that pick a supervisorctl: there is none here, so they cannot be honoured. */
    private static String refusedArgs(StateCall call) {
        for (String arg : List.of("conf_file", "bin_env")) {
            if (call.args().get(arg) != null) {
                return arg + ": not accepted (there is no supervisorctl here: this minion is the supervisor)";
            }
        }
        String user = call.string("user");
        if (user != null && !user.equals(System.getProperty("user.name"))) {
            return "user: not accepted (there is no supervisorctl to run as " + user + ": this minion, running as "
                    + System.getProperty("user.name") + ", is the supervisor)";
        }
        return null;
    }

    /** {@code {process: state}} from supervisord.status. */
    private static Map<String, String> status(StateCall call) {
        Object answer = call.salt().call("supervisord.status", List.of(), Map.of());
        Map<String, String> out = new LinkedHashMap<>();
        if (answer instanceof Map<?, ?> map) {
            map.forEach((k, v) -> out.put(String.valueOf(k), v instanceof Map<?, ?> row ? String.valueOf(row.get("state")) : ""));
        }
        return out;
    }

    /** The groups of processes, as Salt parses them: {@code web:} for {@code web:web_00}. */
    private static Set<String> groups(Map<String, String> all) {
        Set<String> groups = new TreeSet<>();
        all.keySet().stream().filter(p -> p.contains(":")).forEach(p -> groups.add(p.substring(0, p.indexOf(':') + 1)));
        return groups;
    }

    private static boolean isStopped(String state) {
        return switch (state) {
            case "STOPPED", "STOPPING", "EXITED", "FATAL", "BACKOFF" -> true;
            default -> false;
        };
    }

    /** Salt's _check_error: an ERROR line other than the benign ones. */
    private static boolean failure(String answer) {
        return answer.contains("ERROR") && BENIGN.stream().noneMatch(answer::contains);
    }

    private static String text(StateCall call, String fun, List<Object> args, Map<String, Object> kwargs) {
        Object answer = call.salt().call(fun, args, kwargs);
        return answer == null ? "" : String.valueOf(answer);
    }
}
