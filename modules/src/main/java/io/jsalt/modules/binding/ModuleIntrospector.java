package io.jsalt.modules.binding;

import io.jsalt.modules.ModuleContext;
import io.jsalt.modules.ModuleDefinitionException;
import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.FunctionCatalog;
import io.jsalt.modules.api.JobControl;
import io.jsalt.modules.api.KwArgs;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.api.VarArgs;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a module's annotations once, at load time, and checks them, so that every authoring mistake
 * fails when the minion starts rather than when a job arrives.
 */
public final class ModuleIntrospector {

    /** Names as Salt's loader allows them: Python identifiers. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private ModuleIntrospector() {
    }

    /**
     * Describes every {@link SaltFunction} of {@code module}.
     *
     * @throws ModuleDefinitionException naming the class or method that is wrong
     */
    public static ModuleDefinition describe(ExecutionModule module) {
        Class<?> type = module.getClass();
        SaltModule annotation = type.getAnnotation(SaltModule.class);
        if (annotation == null) {
            throw new ModuleDefinitionException(type.getName() + " has no @SaltModule annotation");
        }
        String moduleName = annotation.name();
        if (!NAME.matcher(moduleName).matches()) {
            throw new ModuleDefinitionException(type.getName() + ": module name '" + moduleName
                    + "' is not an identifier");
        }
        List<ModuleFunction> functions = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Method[] methods = type.getMethods();
        // getMethods() has no stable order; sort so that errors and listings are reproducible
        Arrays.sort(methods, Comparator.comparing(Method::getName).thenComparing(Method::toGenericString));
        for (Method method : methods) {
            SaltFunction function = method.getAnnotation(SaltFunction.class);
            if (function == null) {
                continue;
            }
            String name = function.name().isEmpty() ? method.getName() : function.name();
            String where = type.getName() + "." + method.getName();
            if (!NAME.matcher(name).matches()) {
                throw new ModuleDefinitionException(where + ": function name '" + name + "' is not an identifier");
            }
            if (!seen.add(name)) {
                throw new ModuleDefinitionException(where + ": a second function named '" + moduleName + "."
                        + name + "'");
            }
            // the class may be non-public (a test's nested class); the method itself is public
            method.trySetAccessible();
            Object target = Modifier.isStatic(method.getModifiers()) ? null : module;
            functions.add(new ModuleFunction(moduleName, name, function.doc().strip(), function.outputter(), target, method,
                    parameters(method, moduleName + "." + name)));
        }
        if (functions.isEmpty()) {
            throw new ModuleDefinitionException(type.getName() + " declares no @SaltFunction method");
        }
        return new ModuleDefinition(moduleName, annotation.doc().strip(), functions);
    }

    private static List<ParameterSpec> parameters(Method method, String fun) {
        List<ParameterSpec> specs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        boolean afterVarArgs = false;
        boolean sawKwArgs = false;
        boolean sawOptionalPositional = false;
        for (Parameter parameter : method.getParameters()) {
            Class<?> type = parameter.getType();
            String where = fun + ", parameter " + specs.size();
            ParameterSpec spec;
            if (type == ModuleContext.class) {
                spec = new ParameterSpec(ParameterSpec.Kind.CONTEXT, "", type, true, null, false);
            } else if (type == FunctionCatalog.class) {
                spec = new ParameterSpec(ParameterSpec.Kind.CATALOG, "", type, true, null, false);
            } else if (type == JobControl.class) {
                spec = new ParameterSpec(ParameterSpec.Kind.JOB, "", type, true, null, false);
            } else if (sawKwArgs) {
                throw new ModuleDefinitionException(where + ": nothing but injected parameters may follow @KwArgs");
            } else if (parameter.isAnnotationPresent(VarArgs.class)) {
                if (type != List.class || afterVarArgs) {
                    throw new ModuleDefinitionException(where + ": @VarArgs must be a single List<Object>");
                }
                spec = new ParameterSpec(ParameterSpec.Kind.VARARGS,
                        parameter.getAnnotation(VarArgs.class).value(), type, true, null, false);
                afterVarArgs = true;
            } else if (parameter.isAnnotationPresent(KwArgs.class)) {
                if (type != Map.class) {
                    throw new ModuleDefinitionException(where + ": @KwArgs must be a Map<String, Object>");
                }
                spec = new ParameterSpec(ParameterSpec.Kind.KWARGS,
                        parameter.getAnnotation(KwArgs.class).value(), type, true, null, false);
                sawKwArgs = true;
            } else if (parameter.isAnnotationPresent(Arg.class)) {
                spec = named(parameter.getAnnotation(Arg.class), type, where, afterVarArgs);
                if (!afterVarArgs) {
                    if (spec.hasDefault()) {
                        sawOptionalPositional = true;
                    } else if (sawOptionalPositional) {
                        throw new ModuleDefinitionException(where + ": required argument '" + spec.name()
                                + "' follows an optional one");
                    }
                }
            } else {
                throw new ModuleDefinitionException(where + ": needs @Arg, @VarArgs or @KwArgs");
            }
            if (!spec.name().isEmpty() && !names.add(spec.name())) {
                throw new ModuleDefinitionException(where + ": a second parameter named '" + spec.name() + "'");
            }
            specs.add(spec);
        }
        return specs;
    }

    private static ParameterSpec named(Arg arg, Class<?> type, String where, boolean keywordOnly) {
        if (!NAME.matcher(arg.value()).matches()) {
            throw new ModuleDefinitionException(where + ": argument name '" + arg.value() + "' is not an identifier");
        }
        if (!ValueCoercion.supports(type)) {
            throw new ModuleDefinitionException(where + ": type " + type.getName() + " cannot be bound from the wire");
        }
        if (Arg.NONE.equals(arg.defaultValue())) {
            return new ParameterSpec(ParameterSpec.Kind.NAMED, arg.value(), type, false, null, keywordOnly);
        }
        Object defaultValue = null;
        if (!Arg.NULL.equals(arg.defaultValue())) {
            try {
                defaultValue = ValueCoercion.freeze(ValueCoercion.coerce(arg.defaultValue(), type, arg.value()));
            } catch (InvalidArgumentsException e) {
                throw new ModuleDefinitionException(where + ": bad default: " + e.getMessage(), e);
            }
        } else if (type.isPrimitive()) {
            throw new ModuleDefinitionException(where + ": a primitive cannot default to None");
        }
        return new ParameterSpec(ParameterSpec.Kind.NAMED, arg.value(), type, true, defaultValue, keywordOnly);
    }
}
