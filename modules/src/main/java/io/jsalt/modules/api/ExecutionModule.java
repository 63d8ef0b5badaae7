package io.jsalt.modules.api;

/**
 * Marker for a class that holds execution-module functions (Salt's {@code salt/modules/*.py}).
 *
 * <p>An implementation is annotated with {@link SaltModule}, is public, has a public no-argument
 * constructor (it is found with {@link java.util.ServiceLoader} through
 * {@code META-INF/services/io.jsalt.modules.api.ExecutionModule}) and keeps no mutable state: one
 * instance serves every job, possibly on several threads at once.
 */
public interface ExecutionModule {
}
