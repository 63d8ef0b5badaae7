package io.jsalt.states.render;

import io.jsalt.states.files.StateFiles;
import java.util.List;
import java.util.Map;

/**
 * Renders an SLS file through the pipe its first line names ({@code #!jinja|yaml}, the default; {@code #!yaml};
 * {@code #!jinja|json}; {@code #!json}), as Salt's {@code renderer} option and shebang do. The result is the
 * SLS's data: a map from ids (and {@code include}/{@code extend}/{@code exclude}) to declarations.
 */
public final class SlsRenderer {
    private static final List<String> DEFAULT_PIPE = List.of("jinja", "yaml");

    private final JinjaRenderer jinja;

    public SlsRenderer(StateFiles files) {
        this.jinja = new JinjaRenderer(files);
    }

    /** The Jinja renderer, for {@code file.managed}'s {@code template: jinja}. */
    public JinjaRenderer jinja() {
        return jinja;
    }

    /**
     * @throws RenderException when a stage fails, or the pipe is unknown, or the result is not a map
     */
    public Map<String, Object> render(String text, RenderContext context) {
        return render(text, context, Map.of());
    }

    /**
     * As {@link #render(String, RenderContext)}, with {@code extra} template variables on top of Salt's (a pillar
     * include's {@code defaults}).
     */
    public Map<String, Object> render(String text, RenderContext context, Map<String, Object> extra) {
        List<String> pipe = pipe(text, context.path());
        Object data = text;
        for (String stage : pipe) {
            if (!(data instanceof String current)) {
                throw new RenderException("Renderer pipe " + String.join("|", pipe) + " in " + context.path()
                        + ": '" + stage + "' must come before the data renderer");
            }
            data = switch (stage) {
                case "jinja" -> jinja.render(current, context, extra);
                case "yaml", "json" -> DataRenderer.load(current, stage, context.path());
                default -> throw new RenderException("Renderer '" + stage + "' in " + context.path()
                        + " is not available (jinja, yaml and json are)");
            };
        }
        if (data == null || data instanceof String s && s.isBlank()) {
            return Map.of(); // Salt: an SLS that renders to nothing has no states
        }
        if (!(data instanceof Map<?, ?> map)) {
            throw new RenderException("SLS " + context.path() + " does not render to a dictionary but to a "
                    + typeName(data));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> states = (Map<String, Object>) map;
        return states;
    }

    static List<String> pipe(String text, String path) {
        if (!text.startsWith("#!")) {
            return DEFAULT_PIPE;
        }
        int eol = text.indexOf('\n');
        String line = (eol < 0 ? text.substring(2) : text.substring(2, eol)).trim();
        if (line.isEmpty()) {
            throw new RenderException("Empty renderer shebang in " + path);
        }
        return List.of(line.split("\\s*\\|\\s*"));
    }

    private static String typeName(Object data) {
        return data instanceof List<?> ? "list" : data instanceof String ? "string" : data.getClass().getSimpleName();
    }
}
