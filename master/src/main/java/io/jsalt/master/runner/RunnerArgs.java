package io.jsalt.master.runner;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The bound arguments of one runner call: every parameter has its value (possibly its null default). */
public final class RunnerArgs {
    private final Map<String, Object> values;

    RunnerArgs(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public Object value(String name) {
        return values.get(name);
    }

    public String string(String name) {
        return (String) values.get(name);
    }

    public boolean bool(String name) {
        return Boolean.TRUE.equals(values.get(name));
    }

    /** An INTEGER parameter's value, or null when it was neither given nor defaulted. */
    public Integer integer(String name) {
        return (Integer) values.get(name);
    }

    /** A STRINGS parameter's values, or an empty list when it was not given. */
    @SuppressWarnings("unchecked")
    public List<String> strings(String name) {
        Object v = values.get(name);
        return v == null ? List.of() : (List<String>) v;
    }

    public Map<String, Object> asMap() {
        return values;
    }
}
