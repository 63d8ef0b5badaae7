package io.jsalt.states.render;

import com.hubspot.jinjava.el.ext.AbstractCallableMethod;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Salt's {@code salt} dictionary in a template: {@code salt['mod.fun']} is a function that runs the execution
 * module, with positional and keyword arguments ({@code salt['cmd.run']('id -u', python_shell=True)}).
 */
final class SaltFunctionMap extends AbstractMap<String, Object> {
    private final FunctionCaller caller;

    SaltFunctionMap(FunctionCaller caller) {
        this.caller = caller;
    }

    @Override
    public Object get(Object key) {
        if (!(key instanceof String fun) || !caller.has(fun)) {
            return null;
        }
        return new Call(fun, caller);
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof String fun && caller.has(fun);
    }

    /** The functions are looked up by name only: listing them all is not something a template needs. */
    @Override
    public Set<Entry<String, Object>> entrySet() {
        return Set.of();
    }

    /** One function, callable from Jinja. */
    private static final class Call extends AbstractCallableMethod {
        private final String fun;
        private final FunctionCaller caller;

        Call(String fun, FunctionCaller caller) {
            super(fun, new LinkedHashMap<>());
            this.fun = fun;
            this.caller = caller;
        }

        @Override
        public Object doEvaluate(Map<String, Object> argMap, Map<String, Object> kwargMap, List<Object> varArgs) {
            return caller.call(fun, new ArrayList<>(varArgs), new LinkedHashMap<>(kwargMap));
        }
    }
}
