package io.jsalt.states.render;

import com.google.common.collect.SetMultimap;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.lib.tag.eager.DeferredToken;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * The context of one render, a child of the engine's global context (which holds the filters, tests and tags):
 * Jinjava's own renders copy the global context instead, at the cost of rebuilding every default library by
 * reflection. A Jinjava context reports what a render resolved (expressions, values, functions, dependencies,
 * deferred tokens) to its parent, for Jinjava's eager mode, which jsalt does not use; here those reports stop, so
 * the shared global context is never written by a render: renders on several threads (the master's pillar
 * workers) do not race on it, and it does not grow with every render.
 */
final class RenderScope extends Context {

    RenderScope(Context global, Map<String, ?> bindings, Map<Library, Set<String>> disabled) {
        super(global, bindings, disabled);
    }

    @Override
    public void addResolvedExpression(String expression) {
        // eager-mode bookkeeping: not kept, not passed to the global context
    }

    @Override
    public void addResolvedValue(String value) {
        // as above
    }

    @Override
    public void addResolvedFunction(String function) {
        // as above
    }

    @Override
    public void addDependency(String type, String identification) {
        // as above
    }

    @Override
    public void addDependencies(SetMultimap<String, String> dependencies) {
        // as above
    }

    @Override
    public void removeDeferredTokens(Collection<DeferredToken> tokens) {
        // as above
    }
}
