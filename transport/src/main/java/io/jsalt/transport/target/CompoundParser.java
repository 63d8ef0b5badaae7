package io.jsalt.transport.target;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Salt's compound targets: words separated by blanks, each a bare glob on the id or a prefixed matcher
 * ({@code G@ P@ I@ J@ E@ L@ S@}; {@code N@} is expanded by {@link Nodegroups} before this runs), joined by
 * {@code and}, {@code or}, {@code not} and parentheses with Python's precedence (not, then and, then
 * or). As in Salt, {@code not} right after a term means {@code and not}, and an expression may not
 * begin with a binary operator. Unlike Salt, which evaluates a broken expression to "no match", every
 * malformed expression is refused with a message that says what is wrong.
 */
final class CompoundParser {
    /** Nesting of parentheses; deeper is refused, so a hostile expression cannot exhaust the stack. */
    static final int MAX_DEPTH = 50;
    /** Words in an expression, after nodegroups are expanded. */
    static final int MAX_WORDS = 10_000;
    private static final List<String> OPERATORS = List.of("and", "or", "not", "(", ")");

    private final List<String> words;
    private int pos;

    private CompoundParser(List<String> words) {
        this.words = words;
    }

    static Criterion parse(List<String> words) {
        if (words.isEmpty()) {
            throw new InvalidTargetException("compound target is empty");
        }
        if (words.size() > MAX_WORDS) {
            throw new InvalidTargetException("compound target has " + words.size() + " words, more than " + MAX_WORDS);
        }
        CompoundParser p = new CompoundParser(words);
        Criterion c = p.parseOr(0);
        if (p.pos < words.size()) {
            String w = words.get(p.pos);
            throw p.invalid(w.equals(")") ? "unbalanced parentheses: ')' without its '('"
                    : "expected 'and', 'or' or ')' before '" + w + "'");
        }
        return c;
    }

    /** Splits a compound target as Salt does: on blanks for a string, element by element for a list. */
    static List<String> words(Object tgt) {
        if (tgt instanceof String s) {
            String t = s.strip();
            return t.isEmpty() ? List.of() : Arrays.asList(t.split("\\s+"));
        }
        if (tgt instanceof List<?> l) {
            return l.stream().map(PythonText::str).toList();
        }
        throw new InvalidTargetException("compound target must be a string or a list of words");
    }

    static boolean isOperator(String word) {
        return OPERATORS.contains(word);
    }

    private Criterion parseOr(int depth) {
        List<Criterion> parts = new ArrayList<>();
        parts.add(parseAnd(depth));
        while (peekIs("or")) {
            pos++;
            parts.add(parseAnd(depth));
        }
        return parts.size() == 1 ? parts.get(0) : new Criterion.Any(List.copyOf(parts));
    }

    private Criterion parseAnd(int depth) {
        List<Criterion> parts = new ArrayList<>();
        parts.add(parseUnary(depth));
        while (peekIs("and") || peekIs("not")) { // Salt reads "a not b" as "a and not b"
            if (peekIs("and")) {
                pos++;
            }
            parts.add(parseUnary(depth));
        }
        return parts.size() == 1 ? parts.get(0) : new Criterion.All(List.copyOf(parts));
    }

    /** A run of "not"s is counted, not recursed into: "not not not ... x" costs no stack. */
    private Criterion parseUnary(int depth) {
        int nots = 0;
        while (peekIs("not")) {
            pos++;
            nots++;
        }
        Criterion c = parsePrimary(depth);
        return nots % 2 == 1 ? new Criterion.Not(c) : c;
    }

    private Criterion parsePrimary(int depth) {
        if (pos >= words.size()) {
            throw invalid(pos == 0 ? "compound target is empty" : "it ends with '" + words.get(pos - 1) + "'");
        }
        String w = words.get(pos);
        switch (w) {
            case "(" -> {
                if (depth >= MAX_DEPTH) {
                    throw invalid("parentheses nested deeper than " + MAX_DEPTH + " levels");
                }
                pos++;
                if (peekIs("and") || peekIs("or")) {
                    throw invalid("'" + words.get(pos) + "' cannot follow '('");
                }
                if (peekIs(")")) {
                    throw invalid("empty parentheses");
                }
                Criterion inner = parseOr(depth + 1);
                if (!peekIs(")")) {
                    throw invalid(pos >= words.size() ? "unbalanced parentheses: missing ')'"
                            : "expected 'and', 'or' or ')' before '" + words.get(pos) + "'");
                }
                pos++;
                return inner;
            }
            case ")" -> throw invalid(pos == 0 ? "unbalanced parentheses: ')' without its '('" : "')' cannot follow '" + words.get(pos - 1) + "'");
            case "and", "or" -> throw invalid(pos == 0 ? "it cannot begin with '" + w + "'" : "'" + w + "' cannot follow '" + words.get(pos - 1) + "'");
            default -> {
                pos++;
                return term(w);
            }
        }
    }

    private boolean peekIs(String word) {
        return pos < words.size() && words.get(pos).equals(word);
    }

    private InvalidTargetException invalid(String why) {
        return new InvalidTargetException("compound target: " + why);
    }

    /** One word: Salt's parse_target (engine letter, an optional delimiter for G/P/I/J, '@'), or a glob. */
    static Criterion term(String word) {
        char engine = word.length() >= 2 ? word.charAt(0) : 0;
        String delimiter = null;
        String pattern;
        if (engine >= 'A' && engine <= 'Z' && word.charAt(1) == '@') {
            pattern = word.substring(2);
        } else if (word.length() >= 3 && "GPIJ".indexOf(engine) >= 0 && word.charAt(2) == '@') {
            delimiter = String.valueOf(word.charAt(1));
            pattern = word.substring(3);
        } else {
            if (word.startsWith("(") || word.endsWith(")")) {
                throw new InvalidTargetException("compound target: parentheses must stand alone, separated by blanks: '" + word + "'");
            }
            return Criterion.idGlob(word);
        }
        if (pattern.isEmpty()) {
            throw new InvalidTargetException("compound target: nothing after '" + word + "'");
        }
        return switch (engine) {
            case 'G' -> new GrainCriterion(pattern, delimiter == null ? ":" : delimiter, false);
            case 'P' -> new GrainCriterion(pattern, delimiter == null ? ":" : delimiter, true);
            case 'E' -> Criterion.idRegex(TargetMatcher.compileRegex(pattern));
            case 'L' -> Criterion.idIn(Arrays.stream(pattern.split(",")).filter(s -> !s.isEmpty()).toList());
            case 'S' -> new CidrCriterion(pattern);
            case 'N' -> throw new InvalidTargetException("nodegroup '" + pattern + "' cannot be expanded here: no nodegroups are configured");
            case 'I' -> new GrainCriterion(pattern, delimiter == null ? ":" : delimiter, false, true);
            case 'J' -> new GrainCriterion(pattern, delimiter == null ? ":" : delimiter, true, true);
            case 'R' -> throw new InvalidTargetException("range targeting (R@) is not supported");
            default -> throw new InvalidTargetException("unknown target prefix '" + engine + "@' in '" + word
                    + "': expected G@, P@, I@, J@, E@, L@, S@ or N@");
        };
    }
}
