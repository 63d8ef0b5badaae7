package io.jsalt.states.render;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a template sees, as Salt's renderers give it: {@code grains}, {@code pillar}, {@code opts}, {@code saltenv},
 * {@code sls}, {@code slspath}, {@code tpldir}, and {@code salt} (the execution modules).
 *
 * @param path the file's path in the file server, '/'-separated (e.g. {@code web/init.sls}); it names the file in errors
 * @param sls  the SLS name the file was asked for (e.g. {@code web}); empty for a file that is not an SLS
 */
public record RenderContext(Map<String, Object> grains, Map<String, Object> pillar, Map<String, Object> opts,
        String saltenv, String sls, String path, FunctionCaller salt) {

    /** The same context for another file (an included SLS, a {@code file.managed} template). */
    public RenderContext forFile(String otherSls, String otherPath) {
        return new RenderContext(grains, pillar, opts, saltenv, otherSls, otherPath, salt);
    }

    /** The same context in another saltenv (an SLS of another saltenv's top file). */
    public RenderContext withSaltenv(String otherSaltenv) {
        return new RenderContext(grains, pillar, opts, otherSaltenv, sls, path, salt);
    }

    /** The variables a template gets, with Salt's names. */
    public Map<String, Object> variables() {
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("grains", grains);
        vars.put("pillar", pillar);
        vars.put("opts", opts);
        vars.put("saltenv", saltenv);
        vars.put("env", saltenv);
        vars.put("sls", sls);
        vars.put("slspath", slspath());
        vars.put("tpldir", tpldir());
        vars.put("tplpath", path);
        vars.put("salt", new SaltFunctionMap(salt));
        return vars;
    }

    /** Salt's {@code slspath}: the SLS's folder, '/'-separated ({@code web} for {@code web.app} and {@code web}). */
    String slspath() {
        String dir = path.endsWith("/init.sls") || path.equals("init.sls") ? sls : parentSls();
        return dir.replace('.', '/');
    }

    private String parentSls() {
        int dot = sls.lastIndexOf('.');
        return dot < 0 ? "" : sls.substring(0, dot);
    }

    /** Salt's {@code tpldir}: the template's folder, or {@code .} at the root. */
    String tpldir() {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "." : path.substring(0, slash);
    }
}
