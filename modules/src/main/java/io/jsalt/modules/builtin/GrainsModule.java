package io.jsalt.modules.builtin;

import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Salt's {@code grains} module, read-only: the minion's grains come from {@link ModuleContext#grains()}. */
@SaltModule(name = "grains", doc = "Return data about the minion: its grains.")
public final class GrainsModule implements ExecutionModule {

    @SaltFunction(doc = "Return all of the minion's grains.\n\nCLI Example: salt '*' grains.items")
    public Map<String, Object> items(ModuleContext context) {
        return context.grains();
    }

    @SaltFunction(doc = "Return a grain, or default when it is missing. Nested values are reached with the "
            + "delimiter: 'pkg:apache' is grains['pkg']['apache'].\n\nCLI Example: salt '*' grains.get pkg:apache")
    public Object get(@Arg("key") String key,
                      @Arg(value = "default", defaultValue = "") Object defaultValue,
                      @Arg(value = "delimiter", defaultValue = ":") String delimiter,
                      ModuleContext context) {
        return GrainPath.get(context.grains(), key, delimiter, defaultValue);
    }

    @SaltFunction(doc = "Return one or more grains as {key: value}; a missing grain maps to default.\n\n"
            + "CLI Example: salt '*' grains.item os osrelease oscodename")
    public Map<String, Object> item(@VarArgs("args") List<Object> keys,
                                    @Arg(value = "default", defaultValue = "") Object defaultValue,
                                    @Arg(value = "delimiter", defaultValue = ":") String delimiter,
                                    ModuleContext context) {
        Map<String, Object> ret = new LinkedHashMap<>();
        for (Object key : keys) {
            String name = String.valueOf(key);
            ret.put(name, GrainPath.get(context.grains(), name, delimiter, defaultValue));
        }
        return ret;
    }

    @SaltFunction(doc = "Look up the minion's value of a grain (default os_family) in lookup_dict and return "
            + "what it maps to; keys may be globs, a list grain matches by any item. default names the entry used "
            + "when nothing matches; base names an entry the match is merged over; merge is a dict merged on top.\n\n"
            + "CLI Example: salt '*' grains.filter_by '{Debian: Debheads rule, RedHat: I love my hat}'")
    public Object filter_by(@Arg("lookup_dict") Map<String, Object> lookupDict,
                            @Arg(value = "grain", defaultValue = "os_family") String grain,
                            @Arg(value = "merge", defaultValue = Arg.NULL) Object merge,
                            @Arg(value = "default", defaultValue = "default") String defaultKey,
                            @Arg(value = "base", defaultValue = Arg.NULL) String base,
                            ModuleContext context) {
        return GrainLookup.filterBy(lookupDict, GrainPath.get(context.grains(), grain, ":", List.of()), merge,
                defaultKey, base);
    }

    @SaltFunction(doc = "Return a sorted list of the names of all grains.\n\nCLI Example: salt '*' grains.ls")
    public List<String> ls(ModuleContext context) {
        List<String> names = new ArrayList<>(context.grains().keySet());
        names.sort(null);
        return names;
    }

    @SaltFunction(doc = "Return True if the grain is present and its value is not empty or false.\n\n"
            + "CLI Example: salt '*' grains.has_value pkg:apache")
    public boolean has_value(@Arg("key") String key, ModuleContext context) {
        Object value = GrainPath.get(context.grains(), key, ":", null);
        if (value instanceof Boolean flag) {
            return flag;
        }
        if (value instanceof String text) {
            return !text.isEmpty();
        }
        if (value instanceof Map<?, ?> map) {
            return !map.isEmpty();
        }
        if (value instanceof List<?> list) {
            return !list.isEmpty();
        }
        if (value instanceof Number number) {
            return number.doubleValue() != 0;
        }
        return value != null;
    }
}
