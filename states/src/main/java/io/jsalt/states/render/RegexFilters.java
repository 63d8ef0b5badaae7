package io.jsalt.states.render;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.exptest.ExpTest;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Salt's regular-expression filters and its {@code match} test (salt/utils/jinja.py), with Python's {@code re}
 * semantics: {@code regex_search} and {@code regex_match} give the match's groups as a tuple, or None;
 * {@code regex_replace} is {@code re.sub} (Jinjava's own filter of that name is replaced).
 */
final class RegexFilters {
    private RegexFilters() {
    }

    static List<SaltFilter> all() {
        return List.of(
                new SaltFilter("regex_search", (value, args) -> {
                    Matcher m = pattern(args, 0).matcher(text(value));
                    return m.find() ? PythonRegex.groups(m) : null;
                }),
                new SaltFilter("regex_match", (value, args) -> {
                    Matcher m = pattern(args, 0).matcher(text(value));
                    return m.lookingAt() ? PythonRegex.groups(m) : null;
                }),
                new SaltFilter("regex_replace", (value, args) -> PythonRegex.sub(pattern(args, 1),
                        PythonValues.str(args.required(1, "val")), text(value))),
                new SaltFilter("regex_escape", (value, args) -> PythonRegex.escape(text(value))));
    }

    /** Salt's {@code match} test: {@code x is match('a.c', ignorecase=True)} ({@code re.match}, at the start). */
    static ExpTest matchTest() {
        return new ExpTest() {
            @Override
            public String getName() {
                return "match";
            }

            @Override
            public boolean evaluate(Object var, JinjavaInterpreter interpreter, Object... args) {
                // Jinjava hands a test's several arguments over as one list (keywords by position, their names lost)
                if (args.length == 1 && args[0] instanceof List<?> several) {
                    args = several.toArray();
                }
                if (args.length == 0) {
                    throw new RenderException("match() missing required argument: 'rgx'");
                }
                // Jinjava passes a test's keywords as trailing positional values; Salt's order is the same
                boolean ignorecase = args.length > 1 && PythonValues.truthy(args[1]);
                boolean multiline = args.length > 2 && PythonValues.truthy(args[2]);
                return PythonRegex.compile(String.valueOf(args[0]), ignorecase, multiline).matcher(text(var))
                        .lookingAt();
            }
        };
    }

    /** The pattern (first argument), with the {@code ignorecase} and {@code multiline} flags after {@code skip} others. */
    private static Pattern pattern(SaltFilter.Args args, int skip) {
        String regex = String.valueOf(args.required(0, "rgx"));
        return PythonRegex.compile(regex, args.flag(skip + 1, "ignorecase"), args.flag(skip + 2, "multiline"));
    }

    private static String text(Object value) {
        if (!(value instanceof CharSequence s)) {
            throw new RenderException("expected string or bytes-like object, got '" + PythonValues.typeName(value) + "'");
        }
        return s.toString();
    }
}
