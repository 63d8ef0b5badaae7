package io.jsalt.modules;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A module with every kind of parameter, for the binder and registry tests. */
@SaltModule(name = "sample", doc = "Functions that exercise argument binding.")
public final class SampleModule implements ExecutionModule {

    @SaltFunction(doc = "Echo typed arguments back.")
    public Map<String, Object> typed(@Arg("count") int count,
                                     @Arg(value = "flag", defaultValue = "false") boolean flag,
                                     @Arg(value = "ratio", defaultValue = "1.5") double ratio,
                                     @Arg(value = "name", defaultValue = Arg.NULL) String name) {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("count", count);
        ret.put("flag", flag);
        ret.put("ratio", ratio);
        ret.put("name", name);
        return ret;
    }

    @SaltFunction(doc = "A required argument, *rest, a keyword-only argument and **extra.")
    public Map<String, Object> collect(@Arg("first") String first,
                                       @VarArgs("rest") List<Object> rest,
                                       @Arg(value = "sep", defaultValue = ",") String sep,
                                       @KwArgs("extra") Map<String, Object> extra) {
        Map<String, Object> ret = new LinkedHashMap<>();
        ret.put("first", first);
        ret.put("rest", rest);
        ret.put("sep", sep);
        ret.put("extra", extra);
        return ret;
    }

    @SaltFunction(name = "list", doc = "Takes a list.")
    public List<Object> items(@Arg("values") List<Object> values) {
        return values;
    }

    @SaltFunction(doc = "Takes a map.")
    public Map<String, Object> options(@Arg("opts") Map<String, Object> opts) {
        return opts;
    }

    @SaltFunction(doc = "Takes a long and a Long that may be None.")
    public List<Object> longs(@Arg("a") long a, @Arg(value = "b", defaultValue = Arg.NULL) Long b) {
        return java.util.Arrays.asList(a, b);
    }

    @SaltFunction(doc = "The minion id, from the injected context.")
    public String who(ModuleContext context) {
        return context.minionId();
    }

    @SaltFunction(doc = "Throws with a message.")
    public Object boom(@Arg("message") String message) {
        throw new IllegalStateException(message);
    }

    @SaltFunction(doc = "Throws without a message.")
    public Object npe() {
        throw new NullPointerException();
    }

    @SaltFunction(doc = "Recurses until the stack is gone.")
    public Object deep(@Arg(value = "n", defaultValue = "0") long n) {
        return deep(n + 1);
    }

    @SaltFunction(doc = "Returns nothing.")
    public void nothing() {
    }
}
