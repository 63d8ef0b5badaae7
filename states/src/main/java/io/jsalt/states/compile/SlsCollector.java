package io.jsalt.states.compile;

import io.jsalt.states.files.StateFiles;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Renders the asked SLS files and everything they include into one ordered set of declarations (Salt's
 * {@code render_state}/{@code render_highstate}), then applies {@code extend} and {@code exclude}.
 *
 * <p>Order follows Salt's {@code state_auto_order}: a file's includes are rendered first and get the lower order
 * numbers, then the file's own declarations in the order written. Not thread-safe: one collector per run.
 */
final class SlsCollector {
    private final StateFiles files;
    private final SlsRenderer renderer;
    private final RenderContext context;
    private final Map<String, List<Declaration>> byId = new LinkedHashMap<>();
    private final Map<String, String> slsOfId = new LinkedHashMap<>();
    private final List<Pending> extensions = new ArrayList<>();
    private final List<Pending> exclusions = new ArrayList<>();
    private final Set<String> rendered = new HashSet<>();
    private int nextOrder = 10000; // Salt's iorder starts here too

    /** An {@code extend} or {@code exclude} block, applied once every file is rendered. */
    private record Pending(String sls, Object data) {
    }

    SlsCollector(StateFiles files, SlsRenderer renderer, RenderContext context) {
        this.files = files;
        this.renderer = renderer;
        this.context = context;
    }

    /** Renders {@code mods} (and their includes), then applies every extend and exclude; returns by order. */
    List<Declaration> collect(List<String> mods) {
        return collect(Map.of(context.saltenv(), mods));
    }

    /**
     * As {@link #collect(List)} for the SLS names of several saltenvs (a highstate of merged top files), each
     * rendered in its own saltenv, in the map's order; one id may still be declared only once over all of them.
     */
    List<Declaration> collect(Map<String, List<String>> modsBySaltenv) {
        for (Map.Entry<String, List<String>> env : modsBySaltenv.entrySet()) {
            for (String sls : env.getValue()) {
                render(sls, env.getKey());
            }
        }
        // after every file is in: an extend or exclude may name ids of files rendered after its own
        extensions.forEach(e -> extend(e.sls(), e.data()));
        exclusions.forEach(e -> exclude(e.sls(), e.data()));
        List<Declaration> all = new ArrayList<>();
        byId.values().forEach(all::addAll);
        all.sort((a, b) -> Integer.compare(a.order, b.order));
        return all;
    }

    private void render(String sls, String saltenv) {
        if (!rendered.add(saltenv + ":" + sls)) {
            return;
        }
        String path = sls.replace('.', '/') + ".sls";
        Optional<byte[]> bytes = files.read(path, saltenv);
        if (bytes.isEmpty()) {
            path = sls.replace('.', '/') + "/init.sls";
            bytes = files.read(path, saltenv);
        }
        if (bytes.isEmpty()) {
            throw new StateCompileException("No matching sls found for '" + sls + "' in env '" + saltenv + "'");
        }
        RenderContext own = saltenv.equals(context.saltenv()) ? context : context.withSaltenv(saltenv);
        Map<String, Object> data = renderer.render(new String(bytes.get(), StandardCharsets.UTF_8),
                own.forFile(sls, path));
        Object include = data.get("include");
        if (include != null) {
            for (String inc : asList(include, "include", sls)) {
                render(resolveInclude(inc, sls, path), saltenv);
            }
        }
        for (Map.Entry<String, Object> entry : data.entrySet()) {
            String id = String.valueOf(entry.getKey());
            switch (id) {
                case "include" -> { }
                case "extend" -> extensions.add(new Pending(sls, entry.getValue()));
                case "exclude" -> exclusions.add(new Pending(sls, entry.getValue()));
                default -> {
                    if (!id.startsWith("__")) {
                        declare(id, entry.getValue(), sls, saltenv);
                    }
                }
            }
        }
    }

    private void declare(String id, Object body, String sls, String saltenv) {
        String other = slsOfId.get(id);
        if (other != null) {
            throw new StateCompileException("Detected conflicting IDs in the SLS files: ID '" + id + "' in SLS '"
                    + sls + "' is a dupe of the ID in SLS '" + other + "'");
        }
        slsOfId.put(id, sls);
        List<Declaration> decls = new ArrayList<>();
        for (Declaration.Parsed p : Declaration.parse(id, body, sls, true)) {
            // Salt's state_auto_order numbers only the declarations without an order of their own
            decls.add(new Declaration(id, sls, saltenv, p, p.args().containsKey("order") ? nextOrder : nextOrder++));
        }
        byId.put(id, decls);
    }

    /** Salt's relative include: each leading dot climbs one level from the including SLS's package. */
    static String resolveInclude(String inc, String sls, String path) {
        if (!inc.startsWith(".")) {
            return inc;
        }
        int levels = 0;
        while (levels < inc.length() && inc.charAt(levels) == '.') {
            levels++;
        }
        List<String> comps = new ArrayList<>(List.of(sls.split("\\.")));
        if (path.endsWith("/init.sls")) {
            comps.add("init");
        }
        if (levels > comps.size()) {
            throw new StateCompileException("Attempted relative include of '" + inc + "' within SLS '" + sls
                    + "' goes beyond top level package");
        }
        List<String> parts = new ArrayList<>(comps.subList(0, comps.size() - levels));
        parts.add(inc.substring(levels));
        return String.join(".", parts);
    }

    private void extend(String sls, Object extend) {
        if (!(extend instanceof Map<?, ?> map)) {
            throw new StateCompileException("Extension data in SLS '" + sls + "' is not a dictionary");
        }
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String id = String.valueOf(entry.getKey());
            for (Declaration.Parsed p : Declaration.parse(id, entry.getValue(), sls, false)) {
                Declaration target = byId.getOrDefault(id, List.of()).stream()
                        .filter(d -> d.state.equals(p.state())).findFirst()
                        .orElseThrow(() -> new StateCompileException("Cannot extend ID '" + id + "' in '"
                                + context.saltenv() + ":" + sls + "'. It is not part of the high state."));
                if (p.fun() != null) {
                    target.fun = p.fun();
                }
                p.args().forEach((key, value) -> merge(target.args, key, value));
            }
        }
    }

    /** Salt's extend: requisite lists grow, every other argument is replaced. */
    private static void merge(Map<String, Object> args, String key, Object value) {
        if (RequisiteKind.of(key).isPresent() && args.get(key) instanceof List<?> existing) {
            List<Object> joined = new ArrayList<>(existing);
            if (value instanceof List<?> more) {
                joined.addAll(more);
            } else {
                joined.add(value);
            }
            args.put(key, joined);
        } else {
            args.put(key, value);
        }
    }

    private void exclude(String sls, Object exclude) {
        for (Object item : exclude instanceof List<?> list ? list : List.of(exclude)) {
            if (item instanceof Map<?, ?> m && m.size() == 1) {
                Map.Entry<?, ?> e = m.entrySet().iterator().next();
                String what = String.valueOf(e.getValue());
                if ("id".equals(e.getKey())) {
                    byId.remove(what);
                } else if ("sls".equals(e.getKey())) {
                    byId.values().removeIf(decls -> !decls.isEmpty() && decls.get(0).sls.equals(what));
                } else {
                    throw new StateCompileException("Exclude in SLS '" + sls + "' must name an sls or an id: " + item);
                }
            } else if (item instanceof String what) {
                byId.values().removeIf(decls -> !decls.isEmpty() && decls.get(0).sls.equals(what));
            } else {
                throw new StateCompileException("Exclude in SLS '" + sls + "' must name an sls or an id: " + item);
            }
        }
    }

    private static List<String> asList(Object value, String what, String sls) {
        List<String> out = new ArrayList<>();
        for (Object item : value instanceof List<?> list ? list : List.of(value)) {
            if (!(item instanceof String s)) {
                throw new StateCompileException(what + " in SLS '" + sls + "' must be a list of SLS names, not " + item);
            }
            out.add(s);
        }
        return out;
    }
}
