package io.jsalt.states.builtin;

import io.jsalt.states.StatesException;
import io.jsalt.states.run.StateCall;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code user.present} must change for an existing user (Salt's {@code _changes} in salt/states/user.py):
 * uid, gid, groups (the primary group and the user's own group left out, as Salt), home, a missing home folder
 * ({@code homeDoesNotExist}), shell and the GECOS fields. Groups that share a gid are not treated specially.
 */
final class UserChanges {
    private final AccountStore accounts;
    private final StateCall call;
    private final List<String> groups;
    private final List<String> optionalGroups;

    UserChanges(AccountStore accounts, StateCall call, List<String> groups, List<String> optionalGroups) {
        this.accounts = accounts;
        this.call = call;
        this.groups = groups;
        this.optionalGroups = optionalGroups;
    }

    /** Empty when the user does not exist; else the changes (an empty map when it is as wanted). */
    Optional<Map<String, Object>> of(String name, boolean allowUidChange, boolean allowGidChange) {
        Optional<Map<String, Object>> found = accounts.user(name);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> user = found.get();
        long currentGid = ((Number) user.get("gid")).longValue();
        List<String> current = new ArrayList<>(GroupStates.names(user.get("groups")));
        boolean removeGroups = call.flag("remove_groups", true);
        Set<String> wanted = new TreeSet<>();
        if (groups != null) {
            wanted.addAll(groups);
        }
        if (optionalGroups != null) {
            wanted.addAll(optionalGroups);
        }
        if (!removeGroups || groups == null && (optionalGroups == null || optionalGroups.isEmpty())) {
            wanted.addAll(current);
        }
        Map<String, Object> change = new LinkedHashMap<>();
        String uid = call.string("uid");
        if (uid != null && !uid.isEmpty() && !uid.equals(String.valueOf(user.get("uid")))) {
            change.put("uid", uid);
        }
        // Salt: usergroup=True with a group named like the user makes that group the wanted primary one
        Object gid = call.flag("usergroup", false) && accounts.gidOf(name) != null ? name : call.args().get("gid");
        if (gid != null && !String.valueOf(gid).equals(String.valueOf(currentGid))
                && !Long.valueOf(currentGid).equals(accounts.gidOf(gid))) {
            change.put("gid", gid);
        }
        Long wantedGid = gid == null ? Long.valueOf(currentGid) : accounts.gidOf(gid);
        String defaultGroup = wantedGid == null ? String.valueOf(gid) : accounts.groupName(wantedGid);
        String oldDefaultGroup = accounts.groupName(currentGid);
        current.remove(defaultGroup);
        wanted.remove(defaultGroup);
        current.remove(oldDefaultGroup);
        if (!wanted.contains(name)) {
            current.remove(name);
        }
        boolean differs = removeGroups ? !Set.copyOf(current).equals(wanted) : !current.containsAll(wanted);
        if (differs && (!wanted.isEmpty() || removeGroups)) {
            change.put("groups", new ArrayList<>(wanted));
        }
        String home = call.string("home");
        if (home != null && !home.isEmpty() && !home.equals(user.get("home"))) {
            change.put("home", home);
        }
        if (call.flag("createhome", true)) {
            String newHome = home != null && !home.isEmpty() ? home : String.valueOf(user.get("home"));
            if (!Files.isDirectory(accounts.hostPath(newHome))) {
                change.put("homeDoesNotExist", newHome);
            }
        }
        String shell = call.string("shell");
        if (shell != null && !shell.isEmpty() && !shell.equals(user.get("shell"))) {
            change.put("shell", shell);
        }
        for (String field : List.of("fullname", "roomnumber", "workphone", "homephone", "other")) {
            String value = call.string(field);
            if (value != null && !value.equals(user.get(field))) {
                change.put(field, value);
            }
        }
        List<String> errors = new ArrayList<>();
        if (!allowUidChange && change.containsKey("uid")) {
            errors.add("Changing uid (" + user.get("uid") + " -> " + uid + ") not permitted, set allow_uid_change to "
                    + "True to force this change. Note that this will not change file ownership.");
        }
        if (!allowGidChange && change.containsKey("gid")) {
            errors.add("Changing gid (" + currentGid + " -> " + gid + ") not permitted, set allow_gid_change to "
                    + "True to force this change. Note that this will not change file ownership.");
        }
        if (!errors.isEmpty()) {
            throw new StatesException("Encountered error checking for needed changes. Additional info follows:\n\n- "
                    + String.join("\n- ", errors));
        }
        return Optional.of(change);
    }
}
