package io.jsalt.transport.target;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Expands nodegroups (the master's {@code nodegroups} config: name to a compound string or a list of
 * words) into plain compound expressions, as Salt's nodegroup_comp does before a job is published:
 * minions have no nodegroups. {@code N@name} may nest; a cycle or an unknown name is refused.
 */
public final class Nodegroups {
    /** How deep N@ may nest inside nodegroups. */
    static final int MAX_NESTING = 32;
    private static final Pattern ENGINE_PREFIX = Pattern.compile("^[A-Z]@");
    private static final List<String> REGEX_CHARS = List.of("(", "[", "{", "\\", "?", "}", "]", ")");

    private Nodegroups() {}

    /**
     * The target to publish: {@code nodegroup} becomes a {@code compound} of the group's definition, and
     * each {@code N@} inside a compound is replaced by its group in parentheses. Other targets are returned
     * as given.
     *
     * @throws InvalidTargetException for an unknown nodegroup, a cycle, or an expansion too large
     */
    public static Target expand(String tgtType, Object tgt, Map<String, Object> nodegroups) {
        Map<String, Object> groups = nodegroups == null ? Map.of() : nodegroups;
        if ("nodegroup".equals(tgtType)) {
            if (!(tgt instanceof String name) || name.isEmpty()) {
                throw new InvalidTargetException("nodegroup target must be the name of a nodegroup");
            }
            List<String> words = new Expansion(groups).group(name, false);
            return new Target("compound", String.join(" ", words));
        }
        if ("compound".equals(tgtType)) {
            List<String> words = CompoundParser.words(tgt);
            if (words.stream().noneMatch(Nodegroups::isNodegroupWord)) {
                return new Target(tgtType, tgt);
            }
            Expansion expansion = new Expansion(groups);
            List<String> out = new ArrayList<>();
            for (String w : words) {
                expansion.append(w, out);
            }
            return new Target(tgtType, String.join(" ", out));
        }
        return new Target(tgtType, tgt);
    }

    private static boolean isNodegroupWord(String w) {
        return w.length() >= 3 && w.startsWith("N@");
    }

    /** One expansion: the groups being expanded (for the cycle check) and a budget of words. */
    private static final class Expansion {
        private final Map<String, Object> groups;
        private final Deque<String> open = new ArrayDeque<>();
        private int produced;

        Expansion(Map<String, Object> groups) {
            this.groups = groups;
        }

        void append(String word, List<String> out) {
            if (isNodegroupWord(word)) {
                out.addAll(group(word.substring(2), true));
            } else {
                out.add(word);
                count(1);
            }
        }

        List<String> group(String name, boolean nested) {
            if (open.contains(name)) {
                List<String> path = new ArrayList<>(open);
                java.util.Collections.reverse(path);
                path.add(name);
                throw new InvalidTargetException("nodegroup cycle: " + String.join(" -> ", path));
            }
            if (!groups.containsKey(name)) {
                throw new InvalidTargetException("unknown nodegroup '" + name + "'");
            }
            if (open.size() >= MAX_NESTING) {
                throw new InvalidTargetException("nodegroups nested deeper than " + MAX_NESTING + " levels at '" + name + "'");
            }
            List<String> words = definition(name);
            open.push(name);
            try {
                List<String> shorthand = listShorthand(words);
                if (shorthand != null) {
                    count(1);
                    return shorthand;
                }
                List<String> out = new ArrayList<>();
                if (nested) {
                    out.add("(");
                }
                for (String w : words) {
                    append(w, out);
                }
                if (nested) {
                    out.add(")");
                    count(2);
                }
                return out;
            } finally {
                open.pop();
            }
        }

        private List<String> definition(String name) {
            Object def = groups.get(name);
            List<String> words;
            if (def instanceof String || def instanceof List<?>) {
                words = CompoundParser.words(def);
            } else {
                throw new InvalidTargetException("nodegroup '" + name + "' must be a compound string or a list of ids");
            }
            if (words.isEmpty()) {
                throw new InvalidTargetException("nodegroup '" + name + "' is empty");
            }
            return words;
        }

        /**
         * Salt's _nodegroup_regex: a definition with no operator, no wildcard and no prefixed word is a
         * list of ids (L@a,b), or a regular expression (E@...) when a word holds a regex character.
         */
        private static List<String> listShorthand(List<String> words) {
            for (String w : words) {
                if (CompoundParser.isOperator(w) || w.contains("*") || ENGINE_PREFIX.matcher(w).find()) {
                    return null;
                }
            }
            boolean regex = words.stream().anyMatch(w -> REGEX_CHARS.stream().anyMatch(w::contains));
            return List.of((regex ? "E@" : "L@") + String.join(",", words));
        }

        private void count(int words) {
            produced += words;
            if (produced > CompoundParser.MAX_WORDS) {
                throw new InvalidTargetException("nodegroup expansion exceeds " + CompoundParser.MAX_WORDS + " words");
            }
        }
    }
}
