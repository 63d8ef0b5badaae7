package io.jsalt.modules.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code List<Object>} parameter that takes every positional value left over once the named
 * parameters are bound: Python's {@code *args}. Its value in a signature is {@code value()}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface VarArgs {

    /** The name shown in the signature, e.g. {@code "args"} for {@code *args}. */
    String value() default "args";
}
