package io.jsalt.states.render;

import java.util.List;
import java.util.Map;

/**
 * Calls one execution module function (Salt's {@code __salt__}), for {@code salt['mod.fun'](...)} in templates and
 * for state modules that delegate to execution modules.
 */
public interface FunctionCaller {

    /** Nothing is callable: every call fails. */
    FunctionCaller NONE = new FunctionCaller() {
        @Override
        public boolean has(String fun) {
            return false;
        }

        @Override
        public Object call(String fun, List<Object> args, Map<String, Object> kwargs) {
            throw new RenderException("'" + fun + "' is not available.");
        }
    };

    /** Whether {@code fun} exists. */
    boolean has(String fun);

    /**
     * Runs {@code fun} and returns what it returned.
     *
     * @throws io.jsalt.states.StatesException when the function does not exist or fails
     */
    Object call(String fun, List<Object> args, Map<String, Object> kwargs);
}
