package io.jsalt.modules.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code Map<String, Object>} parameter that takes every keyword argument no named parameter
 * claims: Python's {@code **kwargs}. A function without one rejects unknown keywords.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface KwArgs {

    /** The name shown in the signature, e.g. {@code "kwargs"} for {@code **kwargs}. */
    String value() default "kwargs";
}
