package io.jsalt.master.runner;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Binds a runner call's {@code arg} and {@code kwarg} to a signature, with Salt's rules
 * (salt.utils.args.parse_input and load_args_and_kwargs):
 * <ul>
 *   <li>a map in {@code arg} holding {@code "__kwarg__": true} carries keyword arguments;</li>
 *   <li>a string {@code name=value} in {@code arg} is a keyword argument (Salt's KWARG_REGEX), its value
 *       read as Salt's YAML would for the parameter's type ({@code missing=True});</li>
 *   <li>other values in {@code arg} fill the parameters in order; {@code kwarg} fills them by name, and
 *       its {@code __pub_*} entries (Salt's publish metadata) are dropped;</li>
 *   <li>an unknown keyword is refused with Salt's wording, as are too many positional values, a parameter
 *       given twice, and a required one not given. A None for an optional parameter means its default.</li>
 * </ul>
 */
final class ArgumentBinder {
    private static final String KWARG_MARKER = "__kwarg__";
    private static final String PUB_PREFIX = "__pub_";
    private static final Pattern KWARG = Pattern.compile("^([^\\d\\W][\\w.-]*)=(?!=)(.*)$",
            Pattern.DOTALL | Pattern.UNICODE_CHARACTER_CLASS);

    private ArgumentBinder() {
    }

    static RunnerArgs bind(RunnerSignature signature, List<Object> arg, Map<String, Object> kwarg) {
        List<Object> positional = new ArrayList<>();
        Map<String, Object> keywords = new LinkedHashMap<>();
        for (Object item : arg) {
            if (item instanceof Map<?, ?> map && Boolean.TRUE.equals(map.get(KWARG_MARKER))) {
                map.forEach((k, v) -> keyword(keywords, String.valueOf(k), v));
                continue;
            }
            Matcher m = item instanceof String s ? KWARG.matcher(s) : null;
            if (m != null && m.matches()) {
                keywords.put(m.group(1), m.group(2));
            } else {
                positional.add(item);
            }
        }
        kwarg.forEach((k, v) -> keyword(keywords, k, v));

        List<Parameter> parameters = signature.parameters();
        if (positional.size() > parameters.size()) {
            throw new InvalidRunnerArgumentsException("takes at most " + count(parameters.size())
                    + " (" + positional.size() + " given)");
        }
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < positional.size(); i++) {
            given.put(parameters.get(i).name(), positional.get(i));
        }
        List<String> invalid = new ArrayList<>();
        for (Map.Entry<String, Object> k : keywords.entrySet()) {
            if (signature.parameter(k.getKey()).isEmpty()) {
                invalid.add(k.getKey() + "=" + k.getValue());
            } else if (given.containsKey(k.getKey())) {
                throw new InvalidRunnerArgumentsException("got multiple values for argument '" + k.getKey() + "'");
            } else {
                given.put(k.getKey(), k.getValue());
            }
        }
        if (!invalid.isEmpty()) {
            // Salt's wording, from salt.utils.args.invalid_kwargs
            throw new InvalidRunnerArgumentsException("The following keyword arguments are not valid: "
                    + String.join(", ", invalid));
        }

        Map<String, Object> values = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (Parameter p : parameters) {
            Object raw = given.get(p.name());
            boolean none = raw == null || (!p.required() && "None".equals(raw));
            if (!none) {
                values.put(p.name(), coerce(p, raw));
            } else if (p.required()) {
                missing.add("'" + p.name() + "'");
            } else {
                values.put(p.name(), p.defaultValue());
            }
        }
        if (!missing.isEmpty()) {
            throw new InvalidRunnerArgumentsException("missing required argument" + (missing.size() == 1 ? " " : "s ")
                    + String.join(", ", missing));
        }
        return new RunnerArgs(values);
    }

    private static void keyword(Map<String, Object> keywords, String name, Object value) {
        if (!KWARG_MARKER.equals(name) && !name.startsWith(PUB_PREFIX)) {
            keywords.put(name, value);
        }
    }

    private static Object coerce(Parameter p, Object raw) {
        Optional<Object> value = switch (p.type()) {
            case STRING -> raw instanceof String || isWhole(raw) ? Optional.of(String.valueOf(raw)) : Optional.empty();
            case BOOLEAN -> bool(raw);
            case INTEGER -> integer(raw);
            case STRINGS -> strings(raw);
            case TARGET -> raw instanceof String || raw instanceof List<?> ? Optional.of(raw) : Optional.empty();
            case ANY -> Optional.of(raw);
        };
        return value.orElseThrow(() -> new InvalidRunnerArgumentsException("argument '" + p.name() + "' must be "
                + expected(p.type()) + ", not " + shown(raw)));
    }

    private static Optional<Object> bool(Object raw) {
        if (raw instanceof Boolean b) {
            return Optional.of(b);
        }
        if (raw instanceof Number n && isWhole(raw) && (n.longValue() == 0 || n.longValue() == 1)) {
            return Optional.of(n.longValue() == 1);
        }
        if (raw instanceof String s) {
            // the strings YAML 1.1 (Salt's yamlify_arg) reads as booleans, plus 1 and 0
            switch (s.toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on", "1" -> {
                    return Optional.of(true);
                }
                case "false", "no", "off", "0" -> {
                    return Optional.of(false);
                }
                default -> {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Object> integer(Object raw) {
        try {
            if (raw instanceof String s && s.trim().matches("-?[0-9]+")) {
                return Optional.of(Integer.parseInt(s.trim()));
            }
            if (isWhole(raw)) {
                return Optional.of(Math.toIntExact(((Number) raw).longValue()));
            }
        } catch (NumberFormatException | ArithmeticException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static Optional<Object> strings(Object raw) {
        if (raw instanceof String s) {
            return Optional.of(List.of(s.split(",", -1)).stream().map(String::trim).filter(x -> !x.isEmpty()).toList());
        }
        if (raw instanceof List<?> l && l.stream().allMatch(v -> v instanceof String || isWhole(v))) {
            return Optional.of(l.stream().map(String::valueOf).toList());
        }
        return Optional.empty();
    }

    private static boolean isWhole(Object raw) {
        return raw instanceof Long || raw instanceof Integer || raw instanceof Short || raw instanceof Byte
                || raw instanceof BigInteger;
    }

    private static String expected(Parameter.Type type) {
        return switch (type) {
            case STRING -> "a string";
            case BOOLEAN -> "True or False";
            case INTEGER -> "a whole number";
            case STRINGS -> "a string or a list of strings";
            case TARGET -> "a string or a list";
            case ANY -> "any value";
        };
    }

    private static String shown(Object raw) {
        if (raw instanceof String s) {
            return "'" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "'";
        }
        return raw instanceof Map ? "a mapping" : raw instanceof List ? "a list" : String.valueOf(raw);
    }

    private static String count(int n) {
        return n + (n == 1 ? " argument" : " arguments");
    }
}
