package io.jsalt.transport.target;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code G@key:glob} and {@code P@key:regex}: Salt's subdict_match over the grains; {@code I@} and {@code J@} the
 * same over the pillar (Salt's pillar matchers call the same function). The expression is
 * split at each delimiter and the deepest key is tried first, so "foo:bar:baz" matches
 * {@code {foo: {bar: baz}}} and also {@code {foo: "bar:baz"}}. A list matches when any element does,
 * nested dicts inside lists are searched, numeric parts index lists, and values compare as Python's
 * {@code str()} of them, lower-cased on both sides (Salt's matching is case-insensitive; it lower-cases
 * a regex too, a quirk kept so a jsalt master and a salt-minion agree).
 */
final class GrainCriterion implements Criterion {
    /** Grains come from minions: a hostile nesting must not cost the stack. */
    private static final int MAX_DEPTH = 64;
    /**
     * Grain text longer than this never matches: an operator's pattern must not spend an MWorker in
     * catastrophic backtracking over a multi-megabyte value a minion planted.
     */
    static final int MAX_VALUE_CHARS = 64 * 1024;
    private static final Pattern INVALID = Pattern.compile("(?!)");
    /** What a lookup finds when the key is absent (null is a real value: Salt grains often hold None). */
    private static final Object MISSING = new Object();

    private final String expression;
    private final String delimiter;
    private final boolean regex;
    /** Matches the pillar instead of the grains. */
    private final boolean pillar;
    private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

    GrainCriterion(String expression, String delimiter, boolean regex) {
        this(expression, delimiter, regex, false);
    }

    /** @param pillar match the minion's pillar ({@code pillar}, {@code pillar_pcre}) instead of its grains */
    GrainCriterion(String expression, String delimiter, boolean regex, boolean pillar) {
        this.expression = expression;
        this.delimiter = delimiter;
        this.regex = regex;
        this.pillar = pillar;
        String what = (pillar ? "pillar" : "grain") + (regex ? "_pcre" : "");
        if (expression.isEmpty()) {
            throw new InvalidTargetException(what + " target must not be empty");
        }
        int cut = expression.indexOf(delimiter);
        if (cut < 0) {
            throw new InvalidTargetException(what + " target must be key" + delimiter + "value, got '" + expression + "'");
        }
        if (regex && pattern(expression.substring(cut + delimiter.length())) == INVALID) {
            throw new InvalidTargetException("bad regular expression in " + what + " target '" + expression + "'");
        }
    }

    @Override
    public Decision decide(MinionFacts facts) {
        if (pillar) {
            return facts.knowsPillar() ? Decision.of(subdictMatch(facts.pillar(), expression, delimiter, 0)) : Decision.UNKNOWN;
        }
        if (!facts.knowsGrains()) {
            return Decision.UNKNOWN;
        }
        return Decision.of(subdictMatch(facts.grains(), expression, delimiter, 0));
    }

    private boolean subdictMatch(Object data, String expr, String delim, int depth) {
        List<String> splits = split(expr, delim);
        if (splits.size() == 1 || depth > MAX_DEPTH) {
            return false;
        }
        for (int idx = splits.size() - 1; idx > 0; idx--) {
            String key = String.join(delim, splits.subList(0, idx));
            String matchstr;
            Object match;
            if (key.equals("*")) {
                matchstr = expr;
                match = data;
            } else {
                matchstr = String.join(delim, splits.subList(idx, splits.size()));
                match = traverse(data, key, delim);
            }
            if (match == MISSING || match instanceof Map<?, ?> m && m.isEmpty()) {
                continue; // Salt compares with its {} default: a missing key and an empty dict are alike
            }
            if (match instanceof Map<?, ?> m) {
                if (dictMatch(m, matchstr, depth + 1)) {
                    return true;
                }
            } else if (match instanceof List<?> list) {
                for (Object member : list) {
                    if (member instanceof Map<?, ?> m && dictMatch(m, matchstr, depth + 1)) {
                        return true;
                    }
                    if (valueMatch(member, matchstr)) {
                        return true;
                    }
                }
            } else if (valueMatch(match, matchstr)) {
                return true;
            }
        }
        return false;
    }

    private boolean dictMatch(Map<?, ?> target, String pattern, int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        boolean wildcard = pattern.startsWith("*:");
        String p = wildcard ? pattern.substring(2) : pattern;
        if (p.equals("*") || target.containsKey(p)) {
            return true;
        }
        // Salt recurses here with its default delimiter, whatever the caller's was
        if (subdictMatch(target, p, ":", depth + 1)) {
            return true;
        }
        if (wildcard) {
            for (Object value : target.values()) {
                if (value instanceof Map<?, ?> m) {
                    if (dictMatch(m, p, depth + 1)) {
                        return true;
                    }
                } else if (value instanceof List<?> list) {
                    for (Object item : list) {
                        if (valueMatch(item, p)) {
                            return true;
                        }
                    }
                } else if (valueMatch(value, p)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Salt's traverse_dict_and_list: dict keys, list indexes, and keys of dicts embedded in lists. */
    private static Object traverse(Object data, String key, String delim) {
        Object ptr = data;
        for (String each : split(key, delim)) {
            if (ptr instanceof List<?> list) {
                Integer idx = pythonInt(each);
                Object embedded = MISSING;
                for (Object x : list) {
                    if (x instanceof Map<?, ?> m) {
                        embedded = idx == null ? (m.containsKey(each) ? m.get(each) : MISSING) : integerKey(m, idx);
                        if (embedded != MISSING) {
                            break;
                        }
                    }
                }
                if (embedded != MISSING) {
                    ptr = embedded;
                    continue;
                }
                if (idx == null) {
                    return MISSING;
                }
                int i = idx < 0 ? list.size() + idx : idx; // Python indexes from the end too
                if (i < 0 || i >= list.size()) {
                    return MISSING;
                }
                ptr = list.get(i);
            } else if (ptr instanceof Map<?, ?> map) {
                ptr = mapValue(map, each);
                if (ptr == MISSING) {
                    return MISSING;
                }
            } else {
                return MISSING;
            }
        }
        return ptr;
    }

    /** A key as written, else a non-string key that reads the same (Salt YAML-loads the key: "1" finds 1). */
    private static Object mapValue(Map<?, ?> map, String each) {
        if (map.containsKey(each)) {
            return map.get(each);
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object k = e.getKey();
            if ((k instanceof Number || k instanceof Boolean) && yamlSpelling(k, each)) {
                return e.getValue();
            }
        }
        return MISSING;
    }

    private static Object integerKey(Map<?, ?> m, int idx) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (e.getKey() instanceof Number n && !(n instanceof Double) && !(n instanceof Float) && n.longValue() == idx) {
                return e.getValue();
            }
        }
        return MISSING;
    }

    private static boolean yamlSpelling(Object key, String text) {
        if (key instanceof Boolean b) {
            return text.equalsIgnoreCase(b.toString());
        }
        return PythonText.str(key).equals(text);
    }

    /** Python's int() of a string: optional sign, digits, surrounding blanks. */
    private static Integer pythonInt(String s) {
        String t = s.strip();
        if (!t.matches("[+-]?[0-9]{1,9}")) {
            return null;
        }
        return Integer.parseInt(t.startsWith("+") ? t.substring(1) : t);
    }

    private boolean valueMatch(Object target, String pattern) {
        if (target instanceof String s && s.length() > MAX_VALUE_CHARS
                || target instanceof byte[] b && b.length > MAX_VALUE_CHARS) {
            return false; // checked before str(): no copy of a huge value is made
        }
        String t = PythonText.str(target);
        if (t.length() > MAX_VALUE_CHARS) {
            return false;
        }
        t = t.toLowerCase(Locale.ROOT);
        Pattern p = pattern(pattern);
        try {
            return regex ? p.matcher(t).lookingAt() : p.matcher(t).matches();
        } catch (StackOverflowError e) {
            return false; // java.util.regex recurses per repetition: a huge grain value must not kill the caller
        }
    }

    /** A bad regular expression for one split of the expression matches nothing there, as in Salt. */
    private Pattern pattern(String raw) {
        String lowered = raw.toLowerCase(Locale.ROOT);
        return patterns.computeIfAbsent(lowered, k -> {
            if (!regex) {
                return Glob.compile(k);
            }
            try {
                return Pattern.compile(k);
            } catch (PatternSyntaxException e) {
                return INVALID;
            }
        });
    }

    private static List<String> split(String s, String delim) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        int at;
        while ((at = s.indexOf(delim, start)) >= 0) {
            parts.add(s.substring(start, at));
            start = at + delim.length();
        }
        parts.add(s.substring(start));
        return parts;
    }

}
