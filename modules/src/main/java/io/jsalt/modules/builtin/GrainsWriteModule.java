package io.jsalt.modules.builtin;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.GrainsFile;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.grains.GrainData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writing half of Salt's {@code grains} module: values go to the minion's grains file
 * ({@link ModuleContext#grainsFile()}), after which the minion's grains include them. Return values and
 * messages are Salt 3006's.
 */
@SaltModule(name = "grains")
public final class GrainsWriteModule implements ExecutionModule {

    private static final Object MISSING = new Object();

    @SaltFunction(doc = "Set new grains values in the grains file and return them. With destructive=True a key "
            + "whose value is None is removed. Afterwards the minion's grains are refreshed and, unless "
            + "refresh_pillar=False, sent to the master.\n\n"
            + "CLI Example: salt '*' grains.setvals \"{'key1': 'val1', 'key2': 'val2'}\"")
    public Map<String, Object> setvals(@Arg("grains") Object grains,
                                       @Arg(value = "destructive", defaultValue = "false") boolean destructive,
                                       @Arg(value = "refresh_pillar", defaultValue = "true") boolean refreshPillar,
                                       ModuleContext context) {
        if (!(grains instanceof Map<?, ?> newGrains)) {
            throw new CommandExecutionException("setvals grains must be a dictionary.");
        }
        grainsFile(context).update(current -> {
            Map<String, Object> stored = new LinkedHashMap<>(current);
            for (Map.Entry<?, ?> entry : newGrains.entrySet()) {
                String key = String.valueOf(entry.getKey());
                if (entry.getValue() == null && destructive) {
                    stored.remove(key);
                } else {
                    stored.put(key, entry.getValue());
                }
            }
            return stored;
        });
        // Salt's setvals ends with saltutil.refresh_grains(refresh_pillar=...): the master learns the new grains
        context.refreshGrains(refreshPillar);
        Map<String, Object> ret = new LinkedHashMap<>();
        newGrains.forEach((key, value) -> ret.put(String.valueOf(key), value));
        return ret;
    }

    @SaltFunction(doc = "Set a grain value in the grains file; returns {key: val}.\n\n"
            + "CLI Example: salt '*' grains.setval key \"{'sub-key': 'val', 'sub-key2': 'val2'}\"")
    public Map<String, Object> setval(@Arg("key") String key, @Arg("val") Object val,
                                      @Arg(value = "destructive", defaultValue = "false") boolean destructive,
                                      @Arg(value = "refresh_pillar", defaultValue = "true") boolean refreshPillar,
                                      ModuleContext context) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put(key, val);
        return setvals(one, destructive, refreshPillar, context);
    }

    @SaltFunction(doc = "Append a value to a list grain (created when missing; a list val appends each item). "
            + "convert=True turns a non-list value into a list first. Nested keys use the delimiter.\n\n"
            + "CLI Example: salt '*' grains.append roles web")
    public Object append(@Arg("key") String key, @Arg("val") Object val,
                         @Arg(value = "convert", defaultValue = "false") boolean convert,
                         @Arg(value = "delimiter", defaultValue = ":") String delimiter,
                         ModuleContext context) {
        requireDelimiter(delimiter);
        Object grains = GrainData.copy(GrainPath.get(context.grains(), key, delimiter, new ArrayList<>()));
        if (convert && !(grains instanceof List<?>)) {
            grains = grains == null ? new ArrayList<>() : new ArrayList<>(List.of(grains));
        }
        if (!(grains instanceof List<?>)) {
            return "The key " + key + " is not a valid list";
        }
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) grains;
        if (GrainData.contains(list, val)) {
            return "The val " + val + " was already in the list " + key;
        }
        if (val instanceof List<?> items) {
            list.addAll(items);
        } else {
            list.add(val);
        }
        String top = key;
        Object value = list;
        while (top.contains(delimiter)) {
            int cut = top.lastIndexOf(delimiter);
            String rest = top.substring(cut + delimiter.length());
            top = top.substring(0, cut);
            Object parent = GrainData.copy(GrainPath.get(context.grains(), top, delimiter, new LinkedHashMap<>()));
            if (parent instanceof Map<?, ?>) {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) parent;
                map.put(rest, value);
            }
            value = parent;
        }
        return setval(top, value, false, true, context);
    }

    @SaltFunction(doc = "Set a grain value (nested keys with the delimiter), refusing to replace a dict or list "
            + "unless force=True. Returns {'comment', 'changes', 'result'}.\n\n"
            + "CLI Example: salt '*' grains.set 'apps:myApp:port' 2209")
    public CallResult set(@Arg("key") String key,
                          @Arg(value = "val", defaultValue = "") Object val,
                          @Arg(value = "force", defaultValue = "false") boolean force,
                          @Arg(value = "destructive", defaultValue = "false") boolean destructive,
                          @Arg(value = "delimiter", defaultValue = ":") String delimiter,
                          ModuleContext context) {
        requireDelimiter(delimiter);
        return new GrainSetting(this, context, delimiter).set(key, val, force, destructive);
    }

    @SaltFunction(doc = "Delete a grain's value: it is set to None (delkey, or destructive=True, removes the key "
            + "too). Returns grains.set's dict.\n\nCLI Example: salt '*' grains.delval key")
    public CallResult delval(@Arg("key") String key,
                             @Arg(value = "destructive", defaultValue = "false") boolean destructive,
                             @Arg(value = "force", defaultValue = "false") boolean force,
                             ModuleContext context) {
        return set(key, null, force, destructive, ":", context);
    }

    @SaltFunction(doc = "Remove a grain, key and value, from the grains file. Returns grains.set's dict.\n\n"
            + "CLI Example: salt '*' grains.delkey key")
    public CallResult delkey(@Arg("key") String key,
                             @Arg(value = "force", defaultValue = "false") boolean force,
                             ModuleContext context) {
        return delval(key, true, force, context);
    }

    /** An empty delimiter would split a nested key forever (Salt's rsplit refuses it: "empty separator"). */
    private static void requireDelimiter(String delimiter) {
        if (delimiter == null || delimiter.isEmpty()) {
            throw new CommandExecutionException("delimiter must not be empty: it separates the levels of a nested "
                    + "key (default ':')");
        }
    }

    private static GrainsFile grainsFile(ModuleContext context) {
        return context.grainsFile().orElseThrow(() -> new CommandExecutionException(
                "this minion has no grains file to write (grains writes need a minion config directory)"));
    }

    /** Salt's grains.set, step by step; one instance per call. */
    private record GrainSetting(GrainsWriteModule module, ModuleContext context, String delimiter) {

        CallResult set(String key, Object val, boolean force, boolean destructive) {
            grainsFile(context);
            Map<String, Object> ret = new LinkedHashMap<>();
            ret.put("comment", "");
            ret.put("changes", new LinkedHashMap<>());
            ret.put("result", true);
            boolean newComplex = val instanceof Map<?, ?> || val instanceof List<?>;
            Object existing = GrainData.copy(GrainPath.get(context.grains(), key, delimiter, MISSING));
            boolean exists = existing != MISSING;
            boolean existingComplex = existing instanceof Map<?, ?> || existing instanceof List<?>;
            if (exists && GrainData.equal(existing, val) && (val != null || !destructive)) {
                ret.put("comment", "Grain is already set");
                return CallResult.ok(ret);
            }
            if (existing != null && !force) {
                if (existingComplex) {
                    return refused(ret, "The key '" + key + "' exists but is a dict or a list. Use 'force=True' "
                            + "to overwrite.");
                }
                if (newComplex && exists) {
                    return refused(ret, "The key '" + key + "' exists and the given value is a dict or a list. "
                            + "Use 'force=True' to overwrite.");
                }
            }
            Object value = val;
            String top = key;
            while (top.contains(delimiter)) {
                int cut = top.lastIndexOf(delimiter);
                String rest = top.substring(cut + delimiter.length());
                top = top.substring(0, cut);
                Object parent = GrainData.copy(GrainPath.get(context.grains(), top, delimiter, new LinkedHashMap<>()));
                if (parent instanceof Map<?, ?>) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> map = (Map<String, Object>) parent;
                    if (value == null && destructive) {
                        map.remove(rest);
                    } else {
                        map.put(rest, value);
                    }
                } else if (parent instanceof List<?>) {
                    @SuppressWarnings("unchecked")
                    List<Object> list = (List<Object>) parent;
                    setInList(list, rest, value);
                } else if (GrainData.equal(parent, rest) || force) {
                    Map<String, Object> map = new LinkedHashMap<>();
                    map.put(rest, value);
                    parent = map;
                } else {
                    return refused(ret, "The key '" + top + "' value is '" + parent + "', which is different from "
                            + "the provided key '" + rest + "'. Use 'force=True' to overwrite.");
                }
                value = parent;
            }
            ret.put("changes", module.setval(top, value, destructive, true, context));
            return CallResult.ok(ret);
        }

        /** Salt replaces a list item equal to the key, or updates dict items holding it, else appends one. */
        private static void setInList(List<Object> list, String rest, Object value) {
            boolean updated = false;
            for (int i = 0; i < list.size(); i++) {
                Object item = list.get(i);
                if (GrainData.equal(item, rest)) {
                    Map<String, Object> map = new LinkedHashMap<>();
                    map.put(rest, value);
                    list.set(i, map);
                    updated = true;
                } else if (item instanceof Map<?, ?> && ((Map<?, ?>) item).containsKey(rest)) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> map = (Map<String, Object>) item;
                    map.put(rest, value);
                    updated = true;
                }
            }
            if (!updated) {
                Map<String, Object> map = new LinkedHashMap<>();
                map.put(rest, value);
                list.add(map);
            }
        }

        private static CallResult refused(Map<String, Object> ret, String comment) {
            ret.put("comment", comment);
            ret.put("result", false);
            // Salt's minion turns a return dict with a false "result" into retcode 1
            return CallResult.failed(ret, 1);
        }
    }
}
