package io.jsalt.modules;

import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.FunctionCatalog;
import io.jsalt.modules.binding.FunctionBinder;
import io.jsalt.modules.binding.InvalidArgumentsException;
import io.jsalt.modules.binding.ModuleDefinition;
import io.jsalt.modules.binding.ModuleFunction;
import io.jsalt.modules.binding.ModuleIntrospector;
import java.lang.reflect.InvocationTargetException;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The functions a minion can run, and the one place a function name from the wire is turned into
 * code: a lookup in a fixed map (an allowlist), never reflection on the name.
 *
 * <p>Immutable once built and safe to call from many job threads at once; the module instances it
 * holds are stateless by contract. {@link #call} never throws: every failure becomes a
 * {@link CallResult} with Salt's text and retcode.
 */
public final class ModuleRegistry implements FunctionCatalog {

    /** Salt's retcode for a function the minion does not have. */
    public static final int RETCODE_NOT_AVAILABLE = 254;
    /** Salt's EX_GENERIC, for bad arguments and exceptions. */
    public static final int RETCODE_ERROR = 1;

    private static final Logger LOG = LoggerFactory.getLogger(ModuleRegistry.class);

    private final ModuleContext context;
    private final SortedMap<String, ModuleFunction> functions;
    private final Map<String, String> moduleDocs;

    private ModuleRegistry(ModuleContext context, SortedMap<String, ModuleFunction> functions,
                           Map<String, String> moduleDocs) {
        this.context = context;
        this.functions = Collections.unmodifiableSortedMap(functions);
        this.moduleDocs = Collections.unmodifiableMap(moduleDocs);
    }

    /** Every module found with {@link ServiceLoader} on this library's class path: the built-ins and any add-ons. */
    public static ModuleRegistry builtIn(ModuleContext context) {
        return builder(context).addDiscovered(ModuleRegistry.class.getClassLoader()).build();
    }

    public static Builder builder(ModuleContext context) {
        return new Builder(context);
    }

    /**
     * Runs {@code fun} ("module.function") with Salt's {@code arg} list.
     *
     * @param fun      the function's full name
     * @param wireArgs positional values; a Map with {@code "__kwarg__": true} carries keyword arguments
     * @return the result; never null, never thrown
     */
    public CallResult call(String fun, List<Object> wireArgs) {
        ModuleFunction function = fun == null ? null : functions.get(fun);
        if (function == null) {
            // Salt's missing_fun_string, word for word
            return CallResult.failed("'" + fun + "' is not available.", RETCODE_NOT_AVAILABLE);
        }
        Object[] arguments;
        try {
            arguments = FunctionBinder.bind(function, wireArgs == null ? List.of() : wireArgs, context, this);
        } catch (InvalidArgumentsException e) {
            LOG.debug("invalid arguments for {}: {}", fun, e.getMessage());
            return CallResult.failed("ERROR: Passed invalid arguments to " + fun + ": " + e.getMessage()
                    + "; signature: " + function.signature(), RETCODE_ERROR);
        } catch (RuntimeException e) {
            return failure(fun, e);
        }
        try {
            Object returned = function.invoke(arguments);
            return returned instanceof CallResult result ? result : CallResult.ok(returned);
        } catch (InvocationTargetException e) {
            return failure(fun, e.getCause() == null ? e : e.getCause());
        } catch (Throwable e) {
            // an unpackable return value or a reflection problem: the job fails, the minion lives on
            return failure(fun, e);
        }
    }

    private static CallResult failure(String fun, Throwable cause) {
        if (cause instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        LOG.warn("{} raised {}", fun, cause.toString(), cause);
        String message = cause.getMessage();
        String text = message == null || message.isBlank() ? cause.getClass().getName() : message;
        return CallResult.failed("ERROR: " + text, RETCODE_ERROR);
    }

    @Override
    public Set<String> functionNames() {
        // the key set of an unmodifiable sorted map: sorted and read-only
        return functions.keySet();
    }

    @Override
    public Set<String> moduleNames() {
        return Collections.unmodifiableSet(new TreeSet<>(moduleDocs.keySet()));
    }

    @Override
    public Optional<String> doc(String fun) {
        return Optional.ofNullable(fun).map(functions::get).map(ModuleFunction::doc);
    }

    @Override
    public Optional<String> signature(String fun) {
        return Optional.ofNullable(fun).map(functions::get).map(ModuleFunction::signature);
    }

    /** The doc of a module, or empty when there is no such module. */
    public Optional<String> moduleDoc(String module) {
        return Optional.ofNullable(module).map(moduleDocs::get);
    }

    /** Whether {@code fun} can be called. */
    public boolean has(String fun) {
        return fun != null && functions.containsKey(fun);
    }

    public ModuleContext context() {
        return context;
    }

    /** Collects modules; {@link #build()} freezes them. Not thread-safe. */
    public static final class Builder {
        private static final int MAX_DISCOVERY_FAILURES = 64;

        private final ModuleContext context;
        private final SortedMap<String, ModuleFunction> functions = new TreeMap<>();
        private final Map<String, String> moduleDocs = new LinkedHashMap<>();

        private Builder(ModuleContext context) {
            this.context = Objects.requireNonNull(context, "context");
        }

        /**
         * Adds one module.
         *
         * @throws ModuleDefinitionException when its annotations are wrong or a function name is taken
         */
        public Builder addModule(ExecutionModule module) {
            ModuleDefinition definition = ModuleIntrospector.describe(module);
            for (ModuleFunction function : definition.functions()) {
                if (functions.containsKey(function.fullName())) {
                    throw new ModuleDefinitionException(module.getClass().getName() + ": "
                            + function.fullName() + " is already defined");
                }
            }
            definition.functions().forEach(f -> functions.put(f.fullName(), f));
            // a module may be split over several classes; keep the first doc that says something
            String doc = moduleDocs.get(definition.name());
            if (doc == null || doc.isEmpty()) {
                moduleDocs.put(definition.name(), definition.doc());
            }
            return this;
        }

        /**
         * Adds every {@link ExecutionModule} listed in {@code META-INF/services} visible to {@code loader}.
         * A module that cannot be loaded is logged and skipped, so one broken add-on cannot stop a minion.
         */
        public Builder addDiscovered(ClassLoader loader) {
            Iterator<ExecutionModule> modules = ServiceLoader.load(ExecutionModule.class, loader).iterator();
            int failures = 0;
            // bounded: a broken services file could make hasNext() fail on every call
            while (failures < MAX_DISCOVERY_FAILURES) {
                try {
                    if (!modules.hasNext()) {
                        break;
                    }
                    addModule(modules.next());
                } catch (ServiceConfigurationError | ModuleDefinitionException e) {
                    failures++;
                    LOG.error("skipping an execution module that cannot be loaded: {}", e.getMessage(), e);
                }
            }
            return this;
        }

        public ModuleRegistry build() {
            return new ModuleRegistry(context, new TreeMap<>(functions), new LinkedHashMap<>(moduleDocs));
        }
    }
}
