package io.jsalt.modules;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.FunctionCatalog;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.binding.FunctionBinder;
import io.jsalt.modules.binding.InvalidArgumentsException;
import io.jsalt.modules.binding.ModuleDefinition;
import io.jsalt.modules.binding.ModuleFunction;
import io.jsalt.modules.binding.ModuleIntrospector;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
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
public final class ModuleRegistry implements FunctionCatalog, AutoCloseable {

    /** Salt's retcode for a function the minion does not have. */
    public static final int RETCODE_NOT_AVAILABLE = 254;
    /** Salt's EX_GENERIC, for bad arguments and exceptions. */
    public static final int RETCODE_ERROR = 1;

    private static final Logger LOG = LoggerFactory.getLogger(ModuleRegistry.class);

    private final ModuleContext context;
    private final SortedMap<String, ModuleFunction> functions;
    private final Map<String, String> moduleDocs;
    private final List<URLClassLoader> jarLoaders;

    private ModuleRegistry(ModuleContext context, SortedMap<String, ModuleFunction> functions,
                           Map<String, String> moduleDocs, List<URLClassLoader> jarLoaders) {
        this.context = context;
        this.functions = Collections.unmodifiableSortedMap(functions);
        this.moduleDocs = Collections.unmodifiableMap(moduleDocs);
        this.jarLoaders = jarLoaders;
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
        return call(fun, wireArgs, JobControl.NONE);
    }

    /**
     * Runs {@code fun} as part of {@code job}: a function that declares a {@link JobControl} parameter gets it,
     * to report the child processes it starts. Interrupting the calling thread kills the call: blocking built-ins
     * then end their child processes and return an error result.
     *
     * @param fun      the function's full name
     * @param wireArgs positional values; a Map with {@code "__kwarg__": true} carries keyword arguments
     * @param job      the job the call belongs to ({@link JobControl#NONE} outside a job)
     * @return the result; never null, never thrown
     */
    public CallResult call(String fun, List<Object> wireArgs, JobControl job) {
        Objects.requireNonNull(job, "job");
        ModuleFunction function = fun == null ? null : functions.get(fun);
        if (function == null) {
            // Salt's missing_fun_string, word for word
            return CallResult.failed("'" + fun + "' is not available.", RETCODE_NOT_AVAILABLE);
        }
        Object[] arguments;
        try {
            arguments = FunctionBinder.bind(function, wireArgs == null ? List.of() : wireArgs, context, this, job);
        } catch (InvalidArgumentsException e) {
            LOG.debug("invalid arguments for {}: {}", fun, e.getMessage());
            return CallResult.failed("ERROR: Passed invalid arguments to " + fun + ": " + e.getMessage()
                    + "; signature: " + function.signature(), RETCODE_ERROR);
        } catch (RuntimeException e) {
            return failure(fun, e);
        }
        try {
            Object returned = function.invoke(arguments);
            if (returned instanceof CallResult result) {
                return result;
            }
            return reportsFailure(returned) ? CallResult.failed(returned, RETCODE_ERROR) : CallResult.ok(returned);
        } catch (InvocationTargetException e) {
            return failure(fun, e.getCause() == null ? e : e.getCause());
        } catch (Throwable e) {
            // an unpackable return value or a reflection problem: the job fails, the minion lives on
            return failure(fun, e);
        }
    }

    /**
     * Salt's minion rule: a return dict whose "result" or "success" is false (in Python's sense) fails the job
     * with retcode 1, unless the function set a retcode itself (here: returned a CallResult).
     */
    private static boolean reportsFailure(Object returned) {
        if (!(returned instanceof Map<?, ?> map)) {
            return false;
        }
        return (map.containsKey("result") && !truthy(map.get("result")))
                || (map.containsKey("success") && !truthy(map.get("success")));
    }

    private static boolean truthy(Object value) {
        if (value == null || value instanceof Boolean flag && !flag) {
            return false;
        }
        if (value instanceof Number number) {
            return number.doubleValue() != 0;
        }
        if (value instanceof CharSequence text) {
            return text.length() > 0;
        }
        if (value instanceof Map<?, ?> map) {
            return !map.isEmpty();
        }
        return !(value instanceof java.util.Collection<?> collection) || !collection.isEmpty();
    }

    private static CallResult failure(String fun, Throwable cause) {
        if (cause instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        if (cause instanceof InterruptedException || cause instanceof CommandExecutionException) {
            // an expected failure (a killed job, a refused argument): its message says it all
            LOG.info("{} failed: {}", fun, cause.getMessage());
        } else {
            LOG.warn("{} raised {}", fun, cause.toString(), cause);
        }
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

    @Override
    public Optional<Map<String, Object>> argspec(String fun) {
        return Optional.ofNullable(fun).map(functions::get).map(ModuleFunction::argspec);
    }

    /** The outputter {@code fun}'s returns ask for (Salt's {@code __outputter__}), or empty. */
    public Optional<String> outputter(String fun) {
        return Optional.ofNullable(fun).map(functions::get).map(ModuleFunction::outputter).filter(o -> !o.isEmpty());
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

    /**
     * Closes the class loaders of the jars given to {@link Builder#addJars}, releasing their open files. Call it
     * once no job runs this registry's functions any more (after a reload has replaced it and its jobs ended);
     * a registry without jars has nothing to close.
     */
    @Override
    public void close() {
        for (URLClassLoader loader : jarLoaders) {
            try {
                loader.close();
            } catch (IOException e) {
                LOG.warn("cannot close the class loader of extension modules: {}", e.toString());
            }
        }
    }

    /** Collects modules; {@link #build()} freezes them. Not thread-safe. */
    public static final class Builder {
        private static final int MAX_DISCOVERY_FAILURES = 64;

        private final ModuleContext context;
        private final SortedMap<String, ModuleFunction> functions = new TreeMap<>();
        private final Map<String, String> moduleDocs = new LinkedHashMap<>();
        private final List<URLClassLoader> jarLoaders = new ArrayList<>();

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
            addDiscovered(loader, null);
            return this;
        }

        /**
         * Adds the modules of custom jars (Salt's {@code extension_modules}), found with {@link ServiceLoader}
         * through their {@code META-INF/services/io.jsalt.modules.api.ExecutionModule}, in one class loader of
         * their own whose parent is this library's. A jar that cannot be read, and a module that cannot be
         * loaded or whose function names are taken (built-ins win), is logged and skipped.
         */
        public Builder addJars(List<Path> jars) {
            List<URL> urls = ModuleJars.readable(jars);
            if (urls.isEmpty()) {
                return this;
            }
            URLClassLoader loader = new URLClassLoader("jsalt-extension-modules", urls.toArray(URL[]::new),
                    ModuleRegistry.class.getClassLoader());
            // the parent's services are visible through this loader too: take only the jars' own classes
            if (addDiscovered(loader, loader) > 0) {
                jarLoaders.add(loader);
            } else {
                // nothing of these jars is used: release their open files now, not at the registry's close
                closeQuietly(loader);
            }
            return this;
        }

        /** Adds the providers {@code loader} finds; returns how many modules were added. */
        private int addDiscovered(ClassLoader loader, ClassLoader onlyFrom) {
            Iterator<ExecutionModule> modules = ServiceLoader.load(ExecutionModule.class, loader).iterator();
            int failures = 0;
            int added = 0;
            // bounded: a broken services file could make hasNext() fail on every call
            while (failures < MAX_DISCOVERY_FAILURES) {
                try {
                    if (!modules.hasNext()) {
                        break;
                    }
                    ExecutionModule module = modules.next();
                    if (onlyFrom == null || module.getClass().getClassLoader() == onlyFrom) {
                        addModule(module);
                        added++;
                    }
                } catch (ServiceConfigurationError | LinkageError | RuntimeException e) {
                    // LinkageError: a jar built for a newer Java (UnsupportedClassVersionError), one missing a
                    // class it needs (NoClassDefFoundError) or a corrupt class (ClassFormatError). Each skips
                    // one provider; the others, and the minion, go on.
                    failures++;
                    LOG.error("skipping an execution module that cannot be loaded: {}", e.toString(), e);
                }
            }
            return added;
        }

        private static void closeQuietly(URLClassLoader loader) {
            try {
                loader.close();
            } catch (IOException e) {
                LOG.warn("cannot close the class loader of extension modules: {}", e.toString());
            }
        }

        public ModuleRegistry build() {
            return new ModuleRegistry(context, new TreeMap<>(functions), new LinkedHashMap<>(moduleDocs),
                    List.copyOf(jarLoaders));
        }
    }
}
