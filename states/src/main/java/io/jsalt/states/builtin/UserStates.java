package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Salt's {@code user.present} and {@code user.absent} (salt/states/user.py) for local accounts, without the
 * password and shadow-ageing arguments (refused by name). Salt's comments and changes: the differences first
 * ({@link UserChanges}), then the user.* execution functions, then {@code user.info} before and after.
 */
public final class UserStates {
    static final List<String> PRESENT_ARGS = List.of("uid", "gid", "usergroup", "groups", "optional_groups",
            "remove_groups", "home", "createhome", "shell", "unique", "system", "fullname", "roomnumber", "workphone",
            "homephone", "other", "nologinit", "allow_uid_change", "allow_gid_change");
    private static final List<String> GECOS = List.of("fullname", "roomnumber", "workphone", "homephone", "other");

    private final AccountStore accounts;

    UserStates(AccountStore accounts) {
        this.accounts = accounts;
    }

    public static void register(StateFunctions functions) {
        new UserStates(AccountStore.host()).addTo(functions);
    }

    void addTo(StateFunctions functions) {
        functions.add("user.present", this::present).add("user.absent", this::absent);
    }

    StateResult present(StateCall call) {
        call.allowOnly("user.present", PRESENT_ARGS);
        String name = call.name();
        for (String field : List.of("fullname", "roomnumber", "workphone")) {
            String value = call.string(field);
            if (value != null && value.contains(",")) {
                return StateResult.failed("Unsupported char ',' in " + value);
            }
        }
        List<String> groups = GroupStates.optionalList(call, "groups");
        if (groups != null) {
            List<String> missing = groups.stream().filter(g -> accounts.group(g).isEmpty()).toList();
            if (!missing.isEmpty()) {
                return StateResult.failed("The following group(s) are not present: " + String.join(",", missing));
            }
        }
        List<String> optional = GroupStates.optionalList(call, "optional_groups");
        List<String> presentOptional = optional == null ? null
                : optional.stream().filter(g -> accounts.group(g).isPresent()).toList();
        UserChanges wanted = new UserChanges(accounts, call, groups, presentOptional);
        Optional<Map<String, Object>> changes;
        try {
            changes = wanted.of(name, call.flag("allow_uid_change", false), call.flag("allow_gid_change", false));
        } catch (StatesException e) {
            return StateResult.failed(e.getMessage());
        }
        if (changes.isEmpty()) {
            return create(call, name, groups, presentOptional);
        }
        if (changes.get().isEmpty()) {
            return StateResult.ok("User " + name + " is present and up to date");
        }
        if (call.test()) {
            StringBuilder comment = new StringBuilder("The following user attributes are set to be changed:\n");
            changes.get().forEach((k, v) -> comment.append(k).append(": ").append(PythonText.of(v)).append('\n'));
            return new StateResult(null, Map.of(), comment.toString());
        }
        Map<String, Object> pre = accounts.user(name).orElseThrow();
        apply(call, name, new LinkedHashMap<>(changes.get()), pre);
        Map<String, Object> post = accounts.user(name).orElseThrow();
        Map<String, Object> diff = new LinkedHashMap<>();
        post.forEach((k, v) -> {
            if (!Objects.equals(v, pre.get(k))) {
                diff.put(k, v);
            }
        });
        String comment = diff.isEmpty() ? "" : "Updated user " + name;
        Map<String, Object> left = wanted.of(name, true, true).orElse(Map.of());
        if (!left.isEmpty()) {
            return new StateResult(false, diff, "These values could not be changed: " + PythonText.of(left));
        }
        return new StateResult(true, diff, comment);
    }

    private void apply(StateCall call, String name, Map<String, Object> changes, Map<String, Object> pre) {
        boolean homeChanged = false;
        if (changes.containsKey("home")) {
            Object home = changes.remove("home");
            if (!changes.containsKey("homeDoesNotExist")) {
                changeHome(call, name, home);
                homeChanged = true;
            }
        }
        if (changes.containsKey("homeDoesNotExist")) {
            String home = String.valueOf(changes.remove("homeDoesNotExist"));
            if (!homeChanged) {
                changeHome(call, name, home);
            }
            makeHome(accounts.hostPath(home), ((Number) pre.get("uid")).intValue(), ((Number) pre.get("gid")).intValue());
        }
        if (changes.containsKey("shell")) {
            accounts.call(call, "user.chshell", List.of(name, changes.remove("shell")), Map.of());
        }
        if (changes.containsKey("uid")) {
            accounts.modify("usermod", "user", name, "-u", String.valueOf(changes.remove("uid")), false);
        }
        if (changes.containsKey("gid")) {
            accounts.modify("usermod", "user", name, "-g", String.valueOf(changes.remove("gid")), false);
        }
        if (GECOS.stream().anyMatch(changes::containsKey)) {
            List<String> fields = new ArrayList<>();
            for (String field : GECOS) {
                Object value = changes.containsKey(field) ? changes.remove(field) : pre.get(field);
                fields.add(value == null ? "" : String.valueOf(value));
            }
            accounts.modify("usermod", "user", name, "-c", String.join(",", fields).replaceAll(",+$", ""), false);
        }
        if (changes.containsKey("groups")) {
            accounts.call(call, "user.chgroups", List.of(name, changes.remove("groups")),
                    Map.of("append", !call.flag("remove_groups", true)));
        }
    }

    private void changeHome(StateCall call, String name, Object home) {
        accounts.call(call, "user.chhome", List.of(name, String.valueOf(home)), Map.of("persist", false));
    }

    /** Salt's file.mkdir(home, uid, gid, 0o755) for a home that useradd did not make. */
    private static void makeHome(Path home, int uid, int gid) {
        try {
            if (!Files.isDirectory(home)) {
                Files.createDirectories(home);
                Files.setAttribute(home, "unix:uid", uid);
                Files.setAttribute(home, "unix:gid", gid);
                Files.setPosixFilePermissions(home, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        } catch (IOException e) {
            throw new StatesException("Unable to make the home folder " + home + ": " + e);
        }
    }

    private StateResult create(StateCall call, String name, List<String> groups, List<String> presentOptional) {
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "User " + name + " set to be added");
        }
        List<String> allGroups = null;
        if (groups != null || presentOptional != null) {
            allGroups = new ArrayList<>(groups == null ? List.of() : groups);
            if (presentOptional != null) {
                allGroups.addAll(presentOptional);
            }
        }
        boolean createhome = call.flag("createhome", true);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("uid", call.string("uid"));
        params.put("gid", call.string("gid"));
        params.put("groups", allGroups);
        params.put("home", call.string("home"));
        params.put("shell", call.string("shell"));
        params.put("unique", call.flag("unique", true));
        params.put("system", call.flag("system", false));
        for (String field : GECOS) {
            params.put(field, call.string(field) == null ? "" : call.string(field));
        }
        params.put("createhome", createhome);
        params.put("nologinit", call.flag("nologinit", false));
        params.put("usergroup", call.args().get("usergroup") == null ? null : call.flag("usergroup", false));
        Object result = accounts.call(call, "user.add", List.of(name), params);
        if (!Boolean.TRUE.equals(result)) {
            return StateResult.failed(result instanceof String text ? text : "Failed to create new user " + name);
        }
        Map<String, Object> changes = new LinkedHashMap<>(accounts.user(name).orElseThrow());
        if (!createhome) {
            changes.put("home", "");
        }
        return StateResult.changed(changes, "New user " + name + " created");
    }

    StateResult absent(StateCall call) {
        call.allowOnly("user.absent", List.of("purge", "force"));
        String name = call.name();
        Optional<Map<String, Object>> user = accounts.user(name);
        if (user.isEmpty()) {
            return StateResult.ok("User " + name + " is not present");
        }
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "User " + name + " set for removal");
        }
        List<String> before = GroupStates.names(user.get().get("groups"));
        Object removed = accounts.call(call, "user.delete", List.of(name),
                Map.of("remove", call.flag("purge", false), "force", call.flag("force", false)));
        if (!Boolean.TRUE.equals(removed)) {
            return StateResult.failed("Failed to remove user " + name);
        }
        Map<String, Object> changes = new LinkedHashMap<>();
        for (String group : new TreeSet<>(before)) {
            if (accounts.group(group).isEmpty()) {
                changes.put(group + " group", "removed"); // the user's own group went with it (USERGROUPS_ENAB)
            }
        }
        changes.put(name, "removed");
        return StateResult.changed(changes, "Removed user " + name);
    }
}
