package io.jsalt.states.builtin;

import io.jsalt.states.run.StateCall;
import io.jsalt.states.run.StateFunctions;
import io.jsalt.states.run.StateResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Salt's {@code group.present} and {@code group.absent} (salt/states/group.py), with its comments and changes. */
public final class GroupStates {
    private final AccountStore accounts;

    GroupStates(AccountStore accounts) {
        this.accounts = accounts;
    }

    public static void register(StateFunctions functions) {
        new GroupStates(AccountStore.host()).addTo(functions);
    }

    void addTo(StateFunctions functions) {
        functions.add("group.present", this::present).add("group.absent", this::absent);
    }

    StateResult present(StateCall call) {
        call.allowOnly("group.present", List.of("gid", "system", "addusers", "delusers", "members", "non_unique"));
        String name = call.name();
        List<String> addusers = optionalList(call, "addusers");
        List<String> delusers = optionalList(call, "delusers");
        List<String> members = optionalList(call, "members");
        if (members != null && (addusers != null || delusers != null)) {
            return new StateResult(null, Map.of(), "Error: Conflicting options \"members\" with \"addusers\" and/or"
                    + " \"delusers\" can not be used together. ");
        }
        if (addusers != null && delusers != null && addusers.stream().anyMatch(delusers::contains)) {
            return new StateResult(null, Map.of(), "Error. Same user(s) can not be added and deleted simultaneously");
        }
        Long gid;
        try {
            gid = call.args().get("gid") == null ? null : Long.parseLong(call.string("gid"));
        } catch (NumberFormatException e) {
            return StateResult.failed("Invalid gid");
        }
        Optional<Map<String, Object>> changes = changes(name, gid, addusers, delusers, members);
        if (changes.isEmpty()) {
            return create(call, name, gid, addusers, delusers, members);
        }
        if (changes.get().isEmpty()) {
            return StateResult.ok("Group " + name + " is present and up to date");
        }
        StringBuilder comment = new StringBuilder("The following group attributes are set to be changed:\n");
        changes.get().forEach((k, v) -> comment.append(k).append(": ").append(PythonText.of(v)).append('\n'));
        if (call.test()) {
            return new StateResult(null, Map.of(), comment.toString());
        }
        for (Map.Entry<String, Object> change : changes.get().entrySet()) {
            switch (change.getKey()) {
                case "gid" -> accounts.modify("groupmod", "group", name, "-g", String.valueOf(gid),
                        call.flag("non_unique", false));
                case "addusers" -> names(change.getValue()).forEach(u -> addUser(call, name, u));
                case "delusers" -> names(change.getValue()).forEach(u -> delUser(call, name, u));
                default -> setMembers(call, name, members);
            }
        }
        Optional<Map<String, Object>> left = changes(name, gid, addusers, delusers, members);
        if (left.isPresent() && !left.get().isEmpty()) {
            return new StateResult(false, Map.of("Failed", left.get()), comment + "Some changes could not be applied");
        }
        return StateResult.changed(Map.of("Final", "All changes applied successfully"), comment.toString());
    }

    private StateResult create(StateCall call, String name, Long gid, List<String> addusers, List<String> delusers,
            List<String> members) {
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "Group " + name + " set to be added");
        }
        boolean nonUnique = call.flag("non_unique", false);
        if (gid != null && !nonUnique) {
            var taken = accounts.database().groups().stream().filter(g -> g.gid() == gid).findFirst();
            if (taken.isPresent()) {
                return StateResult.failed("Group " + name + " is not present but gid " + gid
                        + " is already taken by group " + taken.get().name());
            }
        }
        Map<String, Object> kwargs = new LinkedHashMap<>();
        kwargs.put("gid", gid == null ? null : String.valueOf(gid));
        kwargs.put("system", call.flag("system", false));
        kwargs.put("non_unique", nonUnique);
        if (!Boolean.TRUE.equals(accounts.call(call, "group.add", List.of(name), kwargs))) {
            return StateResult.failed("Failed to create new group " + name);
        }
        List<String> wanted = addusers != null ? addusers : members;
        if (wanted != null) {
            setMembers(call, name, wanted);
        }
        Optional<Map<String, Object>> left = changes(name, gid, addusers, delusers, members);
        if (left.isPresent() && !left.get().isEmpty()) {
            return new StateResult(false, Map.of("Failed", left.get()),
                    "Group " + name + " has been created but, some changes could not be applied");
        }
        return StateResult.changed(accounts.group(name).orElseThrow(), "New group " + name + " created");
    }

    /** Salt's _changes: empty when the group is missing, else what differs (an empty map: nothing). */
    private Optional<Map<String, Object>> changes(String name, Long gid, List<String> addusers, List<String> delusers,
            List<String> members) {
        Optional<Map<String, Object>> info = accounts.group(name);
        if (info.isEmpty()) {
            return Optional.empty();
        }
        List<String> current = names(info.get().get("members"));
        Map<String, Object> change = new LinkedHashMap<>();
        if (gid != null && !gid.equals(info.get().get("gid"))) {
            change.put("gid", gid);
        }
        if (members != null && !Set.copyOf(current).equals(Set.copyOf(members))) {
            change.put(members.isEmpty() ? "delusers" : "members", members.isEmpty() ? current : members);
        }
        if (addusers != null) {
            List<String> add = addusers.stream().filter(u -> !current.contains(u)).toList();
            if (!add.isEmpty()) {
                change.put("addusers", add);
            }
        }
        if (delusers != null) {
            List<String> del = delusers.stream().filter(current::contains).toList();
            if (!del.isEmpty()) {
                change.put("delusers", del);
            }
        }
        return Optional.of(change);
    }

    /** Salt's group.members: exactly these members, by adding the missing ones and removing the others. */
    private void setMembers(StateCall call, String name, List<String> members) {
        List<String> current = names(accounts.group(name).orElseThrow().get("members"));
        members.stream().filter(u -> !current.contains(u)).forEach(u -> addUser(call, name, u));
        current.stream().filter(u -> !members.contains(u)).forEach(u -> delUser(call, name, u));
    }

    private void addUser(StateCall call, String group, String user) {
        accounts.call(call, "group.adduser", List.of(group, user), Map.of());
    }

    private void delUser(StateCall call, String group, String user) {
        accounts.call(call, "group.deluser", List.of(group, user), Map.of());
    }

    StateResult absent(StateCall call) {
        call.allowOnly("group.absent", List.of());
        String name = call.name();
        if (accounts.group(name).isEmpty()) {
            return StateResult.ok("Group not present");
        }
        if (call.test()) {
            return StateResult.wouldChange(Map.of(), "Group " + name + " is set for removal");
        }
        if (Boolean.TRUE.equals(accounts.call(call, "group.delete", List.of(name), Map.of()))) {
            return StateResult.changed(Map.of(name, ""), "Removed group " + name);
        }
        return StateResult.failed("Failed to remove group " + name);
    }

    /** A list argument (a list, or names separated by commas), or null when not given. */
    static List<String> optionalList(StateCall call, String key) {
        Object v = call.args().get(key);
        return v == null ? null : names(v);
    }

    static List<String> names(Object v) {
        if (v == null) {
            return List.of();
        }
        if (v instanceof List<?> list) {
            return new ArrayList<>(new LinkedHashSet<>(list.stream().map(String::valueOf).toList()));
        }
        String text = String.valueOf(v);
        if (text.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.strip().isEmpty()) {
                out.add(part.strip());
            }
        }
        return out;
    }
}
