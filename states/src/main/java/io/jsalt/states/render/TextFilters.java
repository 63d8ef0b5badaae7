package io.jsalt.states.render;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Salt's filters on texts and scalars (salt/utils/jinja.py, stringutils.py, yamlencoding.py): truth, shell and YAML
 * quoting, case conversion, numbers, Salt's UUIDs, paths.
 */
final class TextFilters {
    private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");
    // Salt's GLOBAL_UUID, the namespace of its uuid filter's uuid5
    private static final UUID SALT_NAMESPACE = UUID.fromString("91633EBF-1C86-5E33-935A-28061F4B480E");

    private TextFilters() {
    }

    static List<SaltFilter> all() {
        return List.of(
                new SaltFilter("to_bool", (value, args) -> toBool(value)),
                new SaltFilter("quote", (value, args) -> shellQuote(PythonValues.str(value))),
                new SaltFilter("yaml_dquote", (value, args) -> YamlQuoting.doubleQuoted(PythonValues.str(value))),
                new SaltFilter("yaml_squote", (value, args) -> YamlQuoting.singleQuoted(PythonValues.str(value))),
                new SaltFilter("yaml_encode", (value, args) -> YamlQuoting.encode(value)),
                new SaltFilter("to_snake_case", (value, args) -> snakeCase(PythonValues.str(value))),
                new SaltFilter("to_camelcase", (value, args) -> camelCase(PythonValues.str(value),
                        args.flag(0, "uppercamel"))),
                new SaltFilter("uuid", (value, args) -> uuid5(PythonValues.str(value))),
                new SaltFilter("skip", (value, args) -> ""),
                new SaltFilter("to_num", (value, args) -> toNum(value)),
                new SaltFilter("str_to_num", (value, args) -> toNum(value)),
                new SaltFilter("is_hex", (value, args) -> value instanceof CharSequence s
                        && s.toString().matches("(?i)(0x)?[0-9a-f]+")),
                new SaltFilter("contains_whitespace", (value, args) -> value instanceof CharSequence s
                        && s.toString().chars().anyMatch(Character::isWhitespace)),
                new SaltFilter("path_join", (value, args) -> pathJoin(value, args)));
    }

    /** Salt's {@code to_bool}: yes/1/true texts, positive numbers, non-empty collections. */
    static boolean toBool(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof CharSequence s) {
            return List.of("yes", "1", "true").contains(s.toString().toLowerCase());
        }
        if (v instanceof Integer || v instanceof Long) {
            return ((Number) v).longValue() > 0;
        }
        if (v instanceof java.util.Collection<?> c) {
            return !c.isEmpty();
        }
        if (v instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        return false; // a float or another hashable value: Salt says False
    }

    /** Python's {@code shlex.quote}. */
    static String shellQuote(String s) {
        if (s.isEmpty()) {
            return "''";
        }
        if (SHELL_SAFE.matcher(s).matches()) {
            return s;
        }
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }

    /** Salt's {@code camel_to_snake_case}: an underscore before a capital that follows a lower-case letter or precedes one. */
    static String snakeCase(String s) {
        if (s.isEmpty()) {
            throw new RenderException("string index out of range");
        }
        StringBuilder out = new StringBuilder().append(Character.toLowerCase(s.charAt(0)));
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isUpperCase(c) && (Character.isLowerCase(s.charAt(i - 1))
                    || i != s.length() - 1 && Character.isLowerCase(s.charAt(i + 1)))) {
                out.append('_');
            }
            out.append(Character.toLowerCase(c));
        }
        return out.toString();
    }

    /** Salt's {@code snake_to_camel_case}, with Python's {@code capitalize} (first upper, the rest lower). */
    static String camelCase(String s, boolean upper) {
        String[] words = s.split("_", -1);
        StringBuilder out = new StringBuilder(upper ? capitalize(words[0]) : words[0]);
        for (int i = 1; i < words.length; i++) {
            out.append(capitalize(words[i]));
        }
        return out.toString();
    }

    private static String capitalize(String w) {
        return w.isEmpty() ? w : w.substring(0, 1).toUpperCase() + w.substring(1).toLowerCase();
    }

    /** Python's {@code uuid.uuid5(GLOBAL_UUID, text)}: SHA-1 of the namespace and the text, version 5. */
    static String uuid5(String name) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            java.nio.ByteBuffer ns = java.nio.ByteBuffer.allocate(16);
            ns.putLong(SALT_NAMESPACE.getMostSignificantBits()).putLong(SALT_NAMESPACE.getLeastSignificantBits());
            sha1.update(ns.array());
            byte[] hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
            hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
            hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(hash, 0, 16);
            return new UUID(b.getLong(), b.getLong()).toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Salt's {@code to_num}: an int, else a float, else the value as it was. */
    static Object toNum(Object v) {
        if (!(v instanceof CharSequence s)) {
            return v;
        }
        String t = s.toString().strip();
        try {
            return Long.parseLong(t.replace("_", ""));
        } catch (NumberFormatException e) {
            try {
                if (t.matches("[+-]?(\\d[\\d_]*\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?(inf|infinity|nan)")) {
                    return Double.parseDouble(t.replace("_", "").replaceAll("(?i)inf(inity)?", "Infinity")
                            .replaceAll("(?i)nan", "NaN"));
                }
            } catch (NumberFormatException ignored) {
                // not a number: Salt gives the text back
            }
            return v;
        }
    }

    /**
     * Salt's {@code path_join} ({@code salt.utils.path.join}): each part normalised, the later parts' leading slashes
     * dropped (so {@code 'a'|path_join('/b')} is {@code a/b}, unlike {@code os.path.join}), the whole normalised.
     */
    private static String pathJoin(Object value, SaltFilter.Args args) {
        StringBuilder out = new StringBuilder(normpath(PythonValues.str(value)));
        for (Object part : args.positional()) {
            String p = normpath(PythonValues.str(part)).replaceAll("^/+", "");
            if (out.length() > 0 && out.charAt(out.length() - 1) != '/') {
                out.append('/');
            }
            out.append(p);
        }
        return normpath(out.toString());
    }

    /** Python's {@code posixpath.normpath}. */
    static String normpath(String path) {
        if (path.isEmpty()) {
            return ".";
        }
        int slashes = path.startsWith("//") && !path.startsWith("///") ? 2 : path.startsWith("/") ? 1 : 0;
        java.util.Deque<String> parts = new java.util.ArrayDeque<>();
        for (String c : path.split("/")) {
            if (c.isEmpty() || c.equals(".")) {
                continue;
            }
            if (c.equals("..") && (slashes == 0 && (parts.isEmpty() || parts.peekLast().equals("..")))) {
                parts.addLast(c);
            } else if (c.equals("..")) {
                parts.pollLast();
            } else {
                parts.addLast(c);
            }
        }
        String joined = "/".repeat(slashes) + String.join("/", parts);
        return joined.isEmpty() ? "." : joined;
    }
}
