package io.jsalt.master.runner;

import java.util.Objects;

/**
 * One parameter of a runner function, as a Python keyword parameter: a name, the kind of value it takes
 * and, unless it is required, its default.
 */
public record Parameter(String name, Type type, boolean required, Object defaultValue) {
    /** What a parameter accepts; wire values (and {@code name=value} strings) are coerced to it. */
    public enum Type {
        /** text; a number is taken as its decimal text (a client may send a jid as a number) */
        STRING,
        /** True/False; also the strings Salt's YAML reads as booleans */
        BOOLEAN,
        /** a whole number; also its decimal text */
        INTEGER,
        /** a string or a list of strings (Salt's split_input: a comma-separated string is a list) */
        STRINGS,
        /** a string or a list, kept as given (targets) */
        TARGET,
        /** any value, kept as given (Salt parameters jsalt accepts and checks itself, or ignores) */
        ANY
    }

    public Parameter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    public static Parameter required(String name, Type type) {
        return new Parameter(name, type, true, null);
    }

    public static Parameter optional(String name, Type type, Object defaultValue) {
        return new Parameter(name, type, false, defaultValue);
    }

    /** How Python would print it in a signature: {@code jid}, {@code missing=False}, {@code tgt_type='glob'}. */
    String describe() {
        return required ? name : name + "=" + python(defaultValue);
    }

    private static String python(Object value) {
        if (value == null) {
            return "None";
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (value instanceof String s) {
            return "'" + s + "'";
        }
        return String.valueOf(value);
    }
}
