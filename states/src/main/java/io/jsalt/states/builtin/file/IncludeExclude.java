package io.jsalt.states.builtin.file;

import io.jsalt.modules.builtin.Glob;
import io.jsalt.states.StatesException;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Salt's {@code check_include_exclude}: {@code include_pat} / {@code exclude_pat} are globs (fnmatch: {@code *}
 * crosses {@code /}) or, prefixed {@code E@}, regular expressions searched in the relative path; each may be a list
 * (any of them matches).
 */
final class IncludeExclude {
    private IncludeExclude() {
    }

    /** Whether a path relative to the state's folder passes: included (when there is an include) and not excluded. */
    static boolean check(String relative, Object include, Object exclude) {
        boolean included = !truthy(include) || any(relative, include);
        boolean excluded = truthy(exclude) && any(relative, exclude);
        return included && !excluded;
    }

    private static boolean truthy(Object pat) {
        return pat != null && !"".equals(pat) && !(pat instanceof List<?> l && l.isEmpty());
    }

    private static boolean any(String relative, Object pats) {
        List<?> list = pats instanceof List<?> l ? l : List.of(pats);
        for (Object pat : list) {
            if (matches(relative, String.valueOf(pat))) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(String relative, String pat) {
        if (pat.startsWith("E@")) {
            try {
                return Pattern.compile(pat.substring(2)).matcher(relative).find();
            } catch (PatternSyntaxException e) {
                throw new StatesException("Invalid pattern '" + pat + "': " + e.getDescription());
            }
        }
        return Glob.of(pat).matches(relative);
    }
}
