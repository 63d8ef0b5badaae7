package io.jsalt.modules.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Exposes a public method of an {@link ExecutionModule} as a callable function.
 *
 * <p>The method may return any value built from strings, numbers, booleans, null, lists and maps
 * (other types are converted on the way out), or a {@link io.jsalt.modules.CallResult} to set the
 * job's retcode itself. Whatever it throws becomes {@code "ERROR: <message>"} with retcode 1.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface SaltFunction {

    /** The function's name; empty means the method's name (use it for Java keywords such as {@code true}). */
    String name() default "";

    /** What the function does; shown by {@code sys.doc}. */
    String doc() default "";

    /**
     * The outputter its returns are shown with unless the user picks one (Salt's {@code __outputter__}): the
     * minion names it in the return ({@code out}), e.g. {@code highstate} for the state functions; empty: none.
     */
    String outputter() default "";
}
