package io.jsalt.modules.binding;

import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.api.FunctionCatalog;
import io.jsalt.modules.api.JobControl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Binds Salt's {@code arg} list to a function's parameters, as Python binds {@code f(*args, **kwargs)}
 * after Salt's {@code load_args_and_kwargs}:
 * <ul>
 *   <li>a Map holding {@code "__kwarg__": true} carries keyword arguments (the marker itself is dropped);</li>
 *   <li>a string {@code name=value} is a keyword argument when the function takes that name
 *       (Salt would reject an unknown name; jsalt keeps it positional, so {@code cmd.run 'A=b'} still runs);</li>
 *   <li>positional values fill the named parameters in order, then {@code @VarArgs};</li>
 *   <li>keywords fill named parameters, then {@code @KwArgs}; {@code __pub_*} keys, which Salt only hands to
 *       functions with {@code **kwargs}, are dropped for the others.</li>
 * </ul>
 */
public final class FunctionBinder {

    private static final String KWARG_MARKER = "__kwarg__";
    private static final String PUB_PREFIX = "__pub_";

    private FunctionBinder() {
    }

    /**
     * The Java arguments for one call of {@code function}.
     *
     * @throws InvalidArgumentsException when the call does not fit the signature
     */
    public static Object[] bind(ModuleFunction function, List<Object> wireArgs, ModuleContext context,
                                FunctionCatalog catalog) throws InvalidArgumentsException {
        return bind(function, wireArgs, context, catalog, JobControl.NONE);
    }

    /**
     * The Java arguments for one call of {@code function} made as part of {@code job}.
     *
     * @throws InvalidArgumentsException when the call does not fit the signature
     */
    public static Object[] bind(ModuleFunction function, List<Object> wireArgs, ModuleContext context,
                                FunctionCatalog catalog, JobControl job) throws InvalidArgumentsException {
        List<Object> positional = new ArrayList<>();
        Map<String, Object> keywords = new LinkedHashMap<>();
        split(function, wireArgs, positional, keywords);

        List<ParameterSpec> parameters = function.parameters();
        Object[] values = new Object[parameters.size()];
        boolean[] given = new boolean[parameters.size()];
        int nextPositional = 0;
        int positionalSlots = 0;
        List<Object> extraPositional = null;
        Map<String, Object> extraKeywords = null;

        for (int i = 0; i < parameters.size(); i++) {
            ParameterSpec parameter = parameters.get(i);
            switch (parameter.kind()) {
                case CONTEXT -> values[i] = context;
                case CATALOG -> values[i] = catalog;
                case JOB -> values[i] = job;
                case VARARGS -> {
                    extraPositional = new ArrayList<>();
                    values[i] = extraPositional;
                }
                case KWARGS -> {
                    extraKeywords = new LinkedHashMap<>();
                    values[i] = extraKeywords;
                }
                case NAMED -> {
                    if (!parameter.keywordOnly()) {
                        positionalSlots++;
                        if (nextPositional < positional.size()) {
                            values[i] = positional.get(nextPositional++);
                            given[i] = true;
                        }
                    }
                }
            }
        }
        if (nextPositional < positional.size()) {
            if (extraPositional == null) {
                throw new InvalidArgumentsException("takes " + plural(positionalSlots, "positional argument")
                        + " but " + positional.size() + (positional.size() == 1 ? " was" : " were") + " given");
            }
            extraPositional.addAll(positional.subList(nextPositional, positional.size()));
        }

        List<String> invalid = new ArrayList<>();
        for (Map.Entry<String, Object> keyword : keywords.entrySet()) {
            int index = function.indexOf(keyword.getKey());
            if (index >= 0) {
                if (given[index]) {
                    throw new InvalidArgumentsException("got multiple values for argument '" + keyword.getKey() + "'");
                }
                values[index] = keyword.getValue();
                given[index] = true;
            } else if (extraKeywords != null) {
                extraKeywords.put(keyword.getKey(), keyword.getValue());
            } else if (!keyword.getKey().startsWith(PUB_PREFIX)) {
                invalid.add(keyword.getKey() + "=" + keyword.getValue());
            }
        }
        if (!invalid.isEmpty()) {
            // Salt's wording, from salt.utils.args.invalid_kwargs
            throw new InvalidArgumentsException("The following keyword arguments are not valid: "
                    + String.join(", ", invalid));
        }

        List<String> missing = new ArrayList<>();
        for (int i = 0; i < parameters.size(); i++) {
            ParameterSpec parameter = parameters.get(i);
            if (parameter.kind() != ParameterSpec.Kind.NAMED) {
                continue;
            }
            if (given[i]) {
                values[i] = ValueCoercion.coerce(values[i], parameter.type(), parameter.name());
            } else if (parameter.hasDefault()) {
                values[i] = parameter.defaultValue();
            } else {
                missing.add("'" + parameter.name() + "'");
            }
        }
        if (!missing.isEmpty()) {
            throw new InvalidArgumentsException("missing required " + (missing.size() == 1 ? "argument " : "arguments ")
                    + missing.stream().collect(Collectors.joining(", ")));
        }
        return values;
    }

    private static void split(ModuleFunction function, List<Object> wireArgs, List<Object> positional,
                              Map<String, Object> keywords) {
        for (Object item : wireArgs) {
            if (item instanceof Map<?, ?> map && Boolean.TRUE.equals(map.get(KWARG_MARKER))) {
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    String key = String.valueOf(entry.getKey());
                    if (!KWARG_MARKER.equals(key)) {
                        keywords.put(key, entry.getValue());
                    }
                }
                continue;
            }
            if (item instanceof String text) {
                Optional<KeywordString> keyword = KeywordString.parse(text);
                if (keyword.isPresent() && function.acceptsKeyword(keyword.get().name())) {
                    keywords.put(keyword.get().name(), keyword.get().value());
                    continue;
                }
            }
            positional.add(item);
        }
    }

    private static String plural(int count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
