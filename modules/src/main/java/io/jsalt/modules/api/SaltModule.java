package io.jsalt.modules.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Names an {@link ExecutionModule}: the part before the dot in {@code test.ping}. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SaltModule {

    /** The module's name as operators type it, e.g. {@code "cmd"}. */
    String name();

    /** What the module is for; shown by {@code sys.doc}. */
    String doc() default "";
}
