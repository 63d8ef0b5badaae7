package io.jsalt.modules.binding;

/**
 * One parameter of a module function, as the binder sees it.
 *
 * @param kind         how the parameter is filled
 * @param name         the argument's name ({@code *args} / {@code **kwargs} name for the catch-alls)
 * @param type         the Java parameter type, one that {@link ValueCoercion} supports
 * @param hasDefault   whether the argument may be left out
 * @param defaultValue the default, already coerced to {@code type} (may be null)
 * @param keywordOnly  whether it can only be given by keyword (it follows {@code *args})
 */
public record ParameterSpec(Kind kind, String name, Class<?> type, boolean hasDefault, Object defaultValue,
                            boolean keywordOnly) {

    /** How a parameter gets its value. */
    public enum Kind {
        /** bound from a positional value or a keyword ({@code @Arg}) */
        NAMED,
        /** the leftover positional values ({@code @VarArgs}) */
        VARARGS,
        /** the unclaimed keywords ({@code @KwArgs}) */
        KWARGS,
        /** the {@link io.jsalt.modules.ModuleContext}, injected */
        CONTEXT,
        /** the {@link io.jsalt.modules.api.FunctionCatalog}, injected */
        CATALOG,
        /** the {@link io.jsalt.modules.api.JobControl} of the call, injected */
        JOB
    }

    /** Whether a call must supply this argument. */
    public boolean required() {
        return kind == Kind.NAMED && !hasDefault;
    }

    /** Whether the parameter takes a value from the call (rather than being injected). */
    public boolean fromCall() {
        return kind == Kind.NAMED || kind == Kind.VARARGS || kind == Kind.KWARGS;
    }

    /** How the parameter reads in a Python-style signature: {@code text}, {@code cwd=None}, {@code *args}. */
    String render() {
        return switch (kind) {
            case VARARGS -> "*" + name;
            case KWARGS -> "**" + name;
            case NAMED -> hasDefault ? name + "=" + pythonLiteral(defaultValue) : name;
            default -> "";
        };
    }

    private static String pythonLiteral(Object value) {
        if (value == null) {
            return "None";
        }
        if (value instanceof Boolean flag) {
            return flag ? "True" : "False";
        }
        if (value instanceof String text) {
            return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
        return String.valueOf(value);
    }
}
