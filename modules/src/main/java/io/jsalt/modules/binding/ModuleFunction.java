package io.jsalt.modules.binding;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One callable function: the method behind {@code module.function}, its parameters and its doc.
 * Immutable; built by {@link ModuleIntrospector}, called through {@link FunctionBinder}.
 */
public final class ModuleFunction {

    private final String module;
    private final String name;
    private final String doc;
    private final String outputter;
    private final Object target;
    private final Method method;
    private final List<ParameterSpec> parameters;
    private final Map<String, Integer> namedIndex;
    private final boolean takesKwargs;

    ModuleFunction(String module, String name, String doc, String outputter, Object target, Method method,
                   List<ParameterSpec> parameters) {
        this.module = module;
        this.name = name;
        this.doc = doc;
        this.outputter = outputter;
        this.target = target;
        this.method = method;
        this.parameters = List.copyOf(parameters);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < parameters.size(); i++) {
            if (parameters.get(i).kind() == ParameterSpec.Kind.NAMED) {
                index.put(parameters.get(i).name(), i);
            }
        }
        this.namedIndex = Collections.unmodifiableMap(index);
        this.takesKwargs = parameters.stream().anyMatch(p -> p.kind() == ParameterSpec.Kind.KWARGS);
    }

    /** The module's name, e.g. {@code test}. */
    public String module() {
        return module;
    }

    /** The function's own name, e.g. {@code ping}. */
    public String name() {
        return name;
    }

    /** {@code module.function}. */
    public String fullName() {
        return module + "." + name;
    }

    public String doc() {
        return doc;
    }

    /** The outputter it asks for ({@link io.jsalt.modules.api.SaltFunction#outputter()}); empty when none. */
    public String outputter() {
        return outputter;
    }

    public List<ParameterSpec> parameters() {
        return parameters;
    }

    /** The Python-style signature operators read in error messages, e.g. {@code test.echo(text)}. */
    public String signature() {
        return fullName() + parameters.stream()
                .filter(ParameterSpec::fromCall)
                .map(ParameterSpec::render)
                .collect(Collectors.joining(", ", "(", ")"));
    }

    /**
     * The parameters as Salt's {@code sys.argspec} reports a Python function: named arguments in order, the
     * defaults of the trailing ones that have defaults, and whether there are {@code *args} / {@code **kwargs}.
     */
    public Map<String, Object> argspec() {
        List<String> args = new ArrayList<>();
        List<Object> defaults = new ArrayList<>();
        boolean varargs = false;
        for (ParameterSpec parameter : parameters) {
            switch (parameter.kind()) {
                case NAMED -> {
                    args.add(parameter.name());
                    if (parameter.hasDefault()) {
                        defaults.add(parameter.defaultValue());
                    }
                }
                case VARARGS -> varargs = true;
                default -> {
                    // injected parameters are not arguments; **kwargs is takesKwargs
                }
            }
        }
        // Salt's argspec_report turns empty lists and false flags into None
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("args", args.isEmpty() ? null : args);
        spec.put("defaults", defaults.isEmpty() ? null : defaults);
        spec.put("varargs", varargs ? Boolean.TRUE : null);
        spec.put("kwargs", takesKwargs ? Boolean.TRUE : null);
        return spec;
    }

    /** Index of the named parameter {@code argName}, or -1. */
    int indexOf(String argName) {
        return namedIndex.getOrDefault(argName, -1);
    }

    /** Whether a keyword argument of this name would be taken, by a named parameter or by {@code **kwargs}. */
    boolean acceptsKeyword(String argName) {
        return takesKwargs || namedIndex.containsKey(argName);
    }

    boolean takesKwargs() {
        return takesKwargs;
    }

    /** Calls the method with arguments bound by {@link FunctionBinder}. */
    public Object invoke(Object[] arguments) throws InvocationTargetException, IllegalAccessException {
        return method.invoke(target, arguments);
    }

    @Override
    public String toString() {
        return signature();
    }
}
