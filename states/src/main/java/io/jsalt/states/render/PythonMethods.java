package io.jsalt.states.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Salt's {@code method_call} filter ({@code 'a,b'|method_call('split', ',')}): the Python methods of texts, lists
 * and dicts that templates call this way. A method the value does not have gives None, as Salt's {@code getattr}
 * with a do-nothing default.
 */
final class PythonMethods {
    private PythonMethods() {
    }

    static SaltFilter filter() {
        return new SaltFilter("method_call", (value, args) -> {
            String name = PythonValues.str(args.required(0, "f_name"));
            List<Object> rest = Arrays.asList(args.positional()).subList(1, args.count());
            return call(value, name, rest);
        });
    }

    static Object call(Object value, String name, List<Object> a) {
        if (value instanceof CharSequence cs) {
            return text(cs.toString(), name, a);
        }
        if (value instanceof Map<?, ?> m) {
            return switch (name) {
                case "get" -> m.containsKey(arg(a, 0)) ? m.get(arg(a, 0)) : arg(a, 1);
                case "keys" -> new ArrayList<>(m.keySet());
                case "values" -> new ArrayList<>(m.values());
                case "items" -> m.entrySet().stream().map(e -> (Object) new PyTuple(Arrays.asList(e.getKey(), e.getValue()))).toList();
                case "copy" -> new java.util.LinkedHashMap<>(m);
                default -> null;
            };
        }
        if (value instanceof List<?> l) {
            return switch (name) {
                case "count" -> l.stream().filter(e -> PythonValues.equal(e, arg(a, 0))).count();
                case "index" -> {
                    for (int i = 0; i < l.size(); i++) {
                        if (PythonValues.equal(l.get(i), arg(a, 0))) {
                            yield i;
                        }
                    }
                    throw new RenderException(PythonValues.repr(arg(a, 0)) + " is not in list");
                }
                case "copy" -> new ArrayList<>(l);
                default -> null;
            };
        }
        return null;
    }

    private static Object text(String s, String name, List<Object> a) {
        return switch (name) {
            case "upper" -> s.toUpperCase();
            case "lower" -> s.toLowerCase();
            case "strip" -> a.isEmpty() || a.get(0) == null ? s.strip() : trim(s, PythonValues.str(a.get(0)), true, true);
            case "lstrip" -> a.isEmpty() || a.get(0) == null ? s.stripLeading() : trim(s, PythonValues.str(a.get(0)), true, false);
            case "rstrip" -> a.isEmpty() || a.get(0) == null ? s.stripTrailing() : trim(s, PythonValues.str(a.get(0)), false, true);
            case "split" -> split(s, a);
            case "startswith" -> s.startsWith(PythonValues.str(arg(a, 0)));
            case "endswith" -> s.endsWith(PythonValues.str(arg(a, 0)));
            case "replace" -> s.replace(PythonValues.str(arg(a, 0)), PythonValues.str(arg(a, 1)));
            case "count" -> (long) (s.length() - s.replace(PythonValues.str(arg(a, 0)), "").length())
                    / Math.max(1, PythonValues.str(arg(a, 0)).length());
            case "find" -> s.indexOf(PythonValues.str(arg(a, 0)));
            case "join" -> String.join(s, PythonValues.items(arg(a, 0)).stream().map(PythonValues::str).toList());
            case "capitalize" -> s.isEmpty() ? s : s.substring(0, 1).toUpperCase() + s.substring(1).toLowerCase();
            case "isdigit" -> !s.isEmpty() && s.chars().allMatch(Character::isDigit);
            case "isalpha" -> !s.isEmpty() && s.chars().allMatch(Character::isLetter);
            default -> null;
        };
    }

    private static List<Object> split(String s, List<Object> a) {
        Object sep = a.isEmpty() ? null : a.get(0);
        int max = a.size() > 1 ? ((Number) a.get(1)).intValue() : -1;
        List<Object> out = new ArrayList<>();
        if (sep == null) {
            for (String w : s.strip().split("\\s+", max < 0 ? 0 : max + 1)) {
                if (!w.isEmpty()) {
                    out.add(w);
                }
            }
            return out;
        }
        out.addAll(Arrays.asList(s.split(java.util.regex.Pattern.quote(PythonValues.str(sep)), max < 0 ? -1 : max + 1)));
        return out;
    }

    private static String trim(String s, String chars, boolean left, boolean right) {
        int start = 0;
        int end = s.length();
        while (left && start < end && chars.indexOf(s.charAt(start)) >= 0) {
            start++;
        }
        while (right && end > start && chars.indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(start, end);
    }

    private static Object arg(List<Object> a, int i) {
        return i < a.size() ? a.get(i) : null;
    }
}
