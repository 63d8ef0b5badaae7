package io.jsalt.modules.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names a parameter of a {@link SaltFunction} (javac does not keep parameter names) and optionally
 * gives it a default.
 *
 * <p>A parameter is bound from the call's positional values in declaration order, or by keyword.
 * Parameters declared after a {@link VarArgs} parameter are keyword-only, as in Python.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Arg {

    /** Sentinel default: the argument is required. */
    String NONE = "\u0000jsalt:required";

    /** Sentinel default: the argument is optional and defaults to null (Python's {@code None}). */
    String NULL = "\u0000jsalt:null";

    /** The argument's name, as a keyword argument would spell it. */
    String value();

    /** The default, written as text and coerced to the parameter's type like a wire value. */
    String defaultValue() default NONE;
}
