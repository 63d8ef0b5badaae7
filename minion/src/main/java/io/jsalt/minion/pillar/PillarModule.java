package io.jsalt.minion.pillar;

import io.jsalt.modules.RunPillar;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import io.jsalt.states.pillar.PillarMerge;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Salt's {@code pillar} module: the pillar in memory ({@code get}, {@code item}, {@code raw}) and a fresh one from
 * the master ({@code items}, {@code ls}). A resident module: it holds the minion's pillar and its way to the master.
 */
@SaltModule(name = "pillar", doc = "Read this minion's pillar (Salt's pillar module).")
public final class PillarModule implements ExecutionModule {
    private static final String DELIMITER = ":";

    private final Supplier<Map<String, Object>> inMemory;
    private final FreshPillar fresh;

    /**
     * @param inMemory the pillar the minion holds
     * @param fresh    asks the master for a fresh pillar
     */
    public PillarModule(Supplier<Map<String, Object>> inMemory, FreshPillar fresh) {
        this.inMemory = inMemory;
        this.fresh = fresh;
    }

    @SaltFunction(doc = "The value at a key of the in-memory pillar; nested keys joined by ':' (or delimiter=). "
            + "default= when absent ('' when not given); with a dict or list default and merge=True, the value is "
            + "merged into the default.\n\nCLI Example: salt '*' pillar.get pkg:apache")
    public Object get(@Arg("key") String key, @Arg(value = "default", defaultValue = Arg.NULL) Object dflt,
            @Arg(value = "merge", defaultValue = "false") boolean merge,
            @Arg(value = "merge_nested_lists", defaultValue = Arg.NULL) Boolean mergeNestedLists,
            @Arg(value = "delimiter", defaultValue = DELIMITER) String delimiter,
            @Arg(value = "pillarenv", defaultValue = Arg.NULL) String pillarenv,
            @Arg(value = "saltenv", defaultValue = Arg.NULL) String saltenv) {
        Object fallback = dflt == null ? "" : dflt;
        Map<String, Object> pillar = pillar(saltenv, pillarenv);
        if (merge && fallback instanceof Map<?, ?> defaults) {
            Object found = PillarPath.traverse(pillar, key, Map.of(), delimiter);
            if (found instanceof Map<?, ?> m) {
                return new PillarMerge("recurse", Boolean.TRUE.equals(mergeNestedLists))
                        .merge(PillarMerge.deepCopy(defaults), PillarMerge.deepCopy(m));
            }
        } else if (merge && fallback instanceof List<?> defaults) {
            Object found = PillarPath.traverse(pillar, key, List.of(), delimiter);
            if (found instanceof List<?> l) {
                List<Object> joined = new ArrayList<>(defaults);
                l.stream().filter(x -> !defaults.contains(x)).forEach(joined::add);
                return joined;
            }
        }
        return PillarPath.traverse(pillar, key, fallback, delimiter);
    }

    @SaltFunction(doc = "The values at one or more keys of the in-memory pillar, as {key: value}; default= "
            + "(default '') for those absent, delimiter= for nested keys.\n\nCLI Example: salt '*' pillar.item foo bar:baz")
    public Map<String, Object> item(@VarArgs("args") List<Object> keys, @KwArgs("kwargs") Map<String, Object> kwargs) {
        Object dflt = kwargs.getOrDefault("default", "");
        String delimiter = String.valueOf(kwargs.getOrDefault("delimiter", DELIMITER));
        Map<String, Object> pillar = pillar(text(kwargs.get("saltenv")), text(kwargs.get("pillarenv")));
        Map<String, Object> ret = new LinkedHashMap<>();
        for (Object key : keys) {
            ret.put(String.valueOf(key), PillarPath.traverse(pillar, String.valueOf(key), dflt, delimiter));
        }
        return ret;
    }

    @SaltFunction(doc = "A fresh pillar from the master (the in-memory one is not changed); with key names, as "
            + "pillar.item. pillar={...} is merged into what the master compiles, as Salt's override.\n\n"
            + "CLI Example: salt '*' pillar.items")
    public Map<String, Object> items(@VarArgs("args") List<Object> keys, @KwArgs("kwargs") Map<String, Object> kwargs) {
        if (!keys.isEmpty()) {
            return item(keys, kwargs);
        }
        Object override = kwargs.get("pillar");
        if (override != null && !(override instanceof Map<?, ?>)) {
            throw new CommandExecutionException("Pillar data must be formatted as a dictionary");
        }
        return fetch(override == null ? Map.of() : PillarMerge.deepCopy((Map<?, ?>) override), text(kwargs.get("saltenv")),
                text(kwargs.get("pillarenv")));
    }

    @SaltFunction(doc = "The top-level keys of a fresh pillar from the master.\n\nCLI Example: salt '*' pillar.ls")
    public List<String> ls(@Arg(value = "saltenv", defaultValue = Arg.NULL) String saltenv,
            @Arg(value = "pillarenv", defaultValue = Arg.NULL) String pillarenv) {
        return new ArrayList<>(fetch(Map.of(), saltenv, pillarenv).keySet());
    }

    @SaltFunction(doc = "The pillar in memory, whole, or the value of one top-level key ({} when absent).\n\n"
            + "CLI Example: salt '*' pillar.raw key='roles'")
    public Object raw(@Arg(value = "key", defaultValue = Arg.NULL) String key) {
        Map<String, Object> pillar = held();
        if (key == null || key.isEmpty()) {
            return new LinkedHashMap<>(pillar);
        }
        return pillar.getOrDefault(key, Map.of());
    }

    /** The in-memory pillar, or, as Salt, a fresh one when a saltenv or pillarenv is named. */
    private Map<String, Object> pillar(String saltenv, String pillarenv) {
        return saltenv == null && pillarenv == null ? held() : fetch(Map.of(), saltenv, pillarenv);
    }

    /** Salt's {@code __pillar__}: inside a state run the run's pillar (with its pillar= override), else the minion's. */
    private Map<String, Object> held() {
        return RunPillar.current().orElseGet(inMemory);
    }

    private Map<String, Object> fetch(Map<String, Object> override, String saltenv, String pillarenv) {
        try {
            return fresh.fetch(override, saltenv, pillarenv);
        } catch (RuntimeException e) {
            throw new CommandExecutionException("the master did not send a fresh pillar: " + e.getMessage());
        }
    }

    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }
}
