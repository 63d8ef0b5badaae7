package io.jsalt.states.render;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.InterpretException;
import com.hubspot.jinjava.interpret.InvalidArgumentException;
import com.hubspot.jinjava.interpret.InvalidInputException;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.interpret.TemplateSyntaxException;
import com.hubspot.jinjava.loader.ResourceLocator;
import io.jsalt.states.files.StateFiles;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Jinja2 through HubSpot's Jinjava, with Salt's context ({@link RenderContext#variables()}). {@code {% include %}}
 * and {@code {% import %}} read through the same {@link StateFiles} as the SLS files, in the template's saltenv.
 * Every error Jinjava reports fails the render, with the file and the line.
 */
public final class JinjaRenderer {
    private final StateFiles files;
    private final Map<String, Jinjava> engines = new ConcurrentHashMap<>();

    public JinjaRenderer(StateFiles files) {
        this.files = files;
    }

    /**
     * @throws RenderException naming {@code context.path()}, the line and the cause
     */
    public String render(String template, RenderContext context) {
        return render(template, context, Map.of());
    }

    /**
     * As {@link #render(String, RenderContext)}, with {@code extra} variables on top of Salt's (a
     * {@code file.managed}'s {@code defaults}, then {@code context}).
     */
    public String render(String template, RenderContext context, Map<String, Object> extra) {
        Map<String, Object> variables = new LinkedHashMap<>(context.variables());
        variables.putAll(extra);
        Jinjava jinjava = engines.computeIfAbsent(context.saltenv(), this::engine);
        String source;
        try {
            source = PythonEscapes.rewrite(template);
        } catch (IllegalArgumentException e) {
            throw new RenderException("Jinja error in " + context.path() + ": " + e.getMessage(), e);
        }
        UnknownFilters.check(source, name -> jinjava.getGlobalContext().getFilter(name) != null, context.path());
        RenderResult result;
        try {
            result = JinjavaInterpreter.getCurrent() == null ? renderAlone(jinjava, source, variables)
                    : jinjava.renderForResult(source, variables); // a render inside a render: Jinjava's own way
        } catch (RuntimeException e) {
            throw new RenderException("Jinja error in " + context.path() + ": " + e.getMessage(), e);
        }
        String errors = result.getErrors().stream()
                .filter(JinjaRenderer::failsTheRender)
                .map(JinjaRenderer::describe)
                .collect(Collectors.joining("; "));
        if (!errors.isEmpty()) {
            throw new RenderException("Jinja error in " + context.path() + ": " + errors);
        }
        return result.getOutput();
    }

    /**
     * Jinjava's {@code renderForResult}, without its copy of the engine's global context: that copy builds every
     * default filter, test, function and tag anew by reflection for each render (about a tenth of a 200-template
     * state run's CPU). Here the render's context ({@link RenderScope}) has the global one as its parent, which it
     * reads and never writes: a template's {@code set}, macros and imports land in its own context, as in Jinjava's
     * copy, and the bookkeeping Jinjava passes up to parents stops there.
     */
    private static RenderResult renderAlone(Jinjava jinjava, String source, Map<String, Object> variables) {
        JinjavaConfig config = jinjava.getGlobalConfig();
        Context context = new RenderScope(jinjava.getGlobalContext(), variables, config.getDisabled());
        JinjavaInterpreter interpreter = config.getInterpreterFactory().newInstance(jinjava, context, config);
        try {
            String output = interpreter.render(source);
            if (!config.isKeepTrailingNewline() && output.endsWith("\n")) {
                output = output.substring(0, output.length() - 1); // Jinja2's default, as renderForResult does
            }
            return new RenderResult(output, interpreter.getContext(), interpreter.getErrorsCopy());
        } catch (TemplateSyntaxException e) {
            return new RenderResult(TemplateError.fromException(e), interpreter.getContext(), interpreter.getErrorsCopy());
        } catch (InterpretException e) {
            return new RenderResult(TemplateError.fromSyntaxError(e), interpreter.getContext(), interpreter.getErrorsCopy());
        } catch (InvalidArgumentException e) {
            return new RenderResult(TemplateError.fromInvalidArgumentException(e), interpreter.getContext(),
                    interpreter.getErrorsCopy());
        } catch (InvalidInputException e) {
            return new RenderResult(TemplateError.fromInvalidInputException(e), interpreter.getContext(),
                    interpreter.getErrorsCopy());
        }
    }

    /** One engine per saltenv (its includes read from there), built once: setting one up costs more than a render. */
    private Jinjava engine(String saltenv) {
        // Jinja2 iterates a dict's keys ({% for k in d %}, d|first, d|join); Jinjava its values unless told
        Jinjava jinjava = new Jinjava(JinjavaConfig.newBuilder().withFailOnUnknownTokens(false)
                .withInterperterFactory(new PythonOutput())
                .withLegacyOverrides(LegacyOverrides.newBuilder().withIterateOverMapKeys(true).build()).build());
        jinjava.setResourceLocator(new Locator(files, saltenv));
        SaltFilters.all().forEach(jinjava.getGlobalContext()::registerFilter);
        jinjava.getGlobalContext().registerExpTest(RegexFilters.matchTest());
        jinjava.getGlobalContext().registerTag(new ImportDataTag("yaml"));
        jinjava.getGlobalContext().registerTag(new ImportDataTag("json"));
        return jinjava;
    }

    /**
     * Jinjava's fatal errors, and the unknown filters, tags, functions and tests it only warns about (Jinja2
     * refuses them). An unknown variable or property is not one: it renders empty, as Jinja2's Undefined.
     */
    private static boolean failsTheRender(TemplateError error) {
        if (error.getSeverity() == TemplateError.ErrorType.FATAL) {
            return true;
        }
        return error.getReason() == TemplateError.ErrorReason.UNKNOWN
                && EnumSet.of(TemplateError.ErrorItem.FILTER, TemplateError.ErrorItem.TAG,
                        TemplateError.ErrorItem.FUNCTION, TemplateError.ErrorItem.EXPRESSION_TEST).contains(error.getItem());
    }

    private static String describe(TemplateError error) {
        Throwable cause = error.getException();
        while (cause != null && cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause != null && cause.getMessage() != null ? cause.getMessage() : error.getMessage();
        return "line " + error.getLineno() + ": " + message;
    }

    /** {@code salt://path} or a plain path, relative to the file server's root as in Salt. */
    private record Locator(StateFiles files, String saltenv) implements ResourceLocator {
        @Override
        public String getString(String fullName, Charset encoding, JinjavaInterpreter interpreter) throws IOException {
            byte[] bytes = files.read(StateFiles.pathOf(fullName), saltenv)
                    .orElseThrow(() -> new IOException("Template '" + fullName + "' not found in saltenv " + saltenv));
            return PythonEscapes.rewrite(new String(bytes, encoding == null ? StandardCharsets.UTF_8 : encoding));
        }
    }
}
