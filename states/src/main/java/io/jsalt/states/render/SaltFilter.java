package io.jsalt.states.render;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.AdvancedFilter;
import java.util.Map;

/**
 * One of Salt's Jinja filters, with Python's calling convention: positional arguments and keywords
 * ({@code regex_search('x', ignorecase=True)}) arrive as Jinjava evaluated them, not as text.
 */
record SaltFilter(String name, Body body) implements AdvancedFilter {

    /** The filter's work: the value on the left of the bar, then the arguments. */
    interface Body {
        Object apply(Object value, Args args);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public Object filter(Object var, JinjavaInterpreter interpreter, Object[] args, Map<String, Object> kwargs) {
        try {
            return body.apply(var, new Args(name, args == null ? new Object[0] : args,
                    kwargs == null ? Map.of() : kwargs));
        } catch (RenderException e) {
            throw e;
        } catch (RuntimeException e) {
            // Jinja2 stops the render with the filter's exception; so does jsalt, naming the filter
            throw new RenderException(name + ": " + e.getMessage(), e);
        }
    }

    /** A filter's arguments by position or by keyword, as a Python function would take them. */
    record Args(String filter, Object[] positional, Map<String, Object> keywords) {

        /** The argument at {@code index} (after the value), or the keyword {@code key}, or {@code fallback}. */
        Object get(int index, String key, Object fallback) {
            if (keywords.containsKey(key)) {
                return keywords.get(key);
            }
            return index < positional.length ? positional[index] : fallback;
        }

        Object required(int index, String key) {
            if (!keywords.containsKey(key) && index >= positional.length) {
                throw new RenderException(filter + "() missing required argument: '" + key + "'");
            }
            return get(index, key, null);
        }

        boolean flag(int index, String key) {
            return PythonValues.truthy(get(index, key, false));
        }

        String text(int index, String key, String fallback) {
            Object v = get(index, key, fallback);
            return v == null ? null : String.valueOf(v);
        }

        int count() {
            return positional.length;
        }
    }
}
