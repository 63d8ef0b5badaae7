package io.jsalt.master.pillar;

import io.jsalt.config.PillarSettings;
import io.jsalt.states.StatesException;
import io.jsalt.states.pillar.PillarMerge;
import io.jsalt.states.render.FunctionCaller;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import io.jsalt.transport.target.Glob;
import io.jsalt.transport.target.MinionFacts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Compiles one minion's pillar on the master, as Salt's {@code Pillar.compile_pillar} does: the top files of the
 * saltenvs of {@code pillar_roots} are rendered and merged, the targets matched against the minion's id and
 * grains, each SLS they give (globs expand over the saltenv's SLS names) rendered with that minion's grains, its
 * {@code include}s first, and the results merged in order with {@code pillar_source_merging_strategy}. What does
 * not render is left out and named in the pillar's {@code _errors}, as Salt does; nothing is thrown.
 *
 * <p>Templates see {@code grains} (the minion's, with {@code id} set to its id as Salt's master does), {@code opts}
 * ({@code id}, {@code saltenv}, {@code pillarenv}), {@code saltenv}, {@code sls}, and an empty {@code pillar}
 * (Salt's master renders pillar with its own, normally empty, pillar). {@code salt[...]} functions are not
 * available on the master. Thread-safe: MWorkers compile concurrently.
 */
public final class PillarCompiler {
    private static final String TOP = "top.sls";

    private final PillarFiles files;
    private final SlsRenderer renderer;
    private final Supplier<PillarSettings> settings;
    private final Supplier<Map<String, Object>> nodegroups;

    /**
     * What a minion asks with {@code _pillar}.
     *
     * @param saltenv   the minion's saltenv (null: none); with the {@code none} strategy only its top file is read
     * @param pillarenv only this saltenv's targets count (null: every saltenv)
     * @param override  merged first and again last (Salt's {@code pillar_override})
     */
    public record Request(String minionId, Map<String, Object> grains, String saltenv, String pillarenv,
            Map<String, Object> override) {}

    /**
     * @param settings   read at every compile, so a reloaded configuration applies to the next pillar
     * @param nodegroups for {@code - match: nodegroup} targets
     */
    public PillarCompiler(Supplier<PillarSettings> settings, Supplier<Map<String, Object>> nodegroups) {
        this.settings = settings;
        this.nodegroups = nodegroups;
        Supplier<Map<String, List<Path>>> roots = () -> settings.get().roots();
        this.files = new PillarFiles(roots);
        this.renderer = new SlsRenderer(files);
    }

    /** The pillar of {@code request}'s minion; render errors are in its {@code _errors} list. */
    public Map<String, Object> compile(Request request) {
        PillarSettings s = settings.get();
        PillarMerge merge = new PillarMerge(s.mergingStrategy(), s.mergeLists());
        Map<String, Object> grains = new LinkedHashMap<>(request.grains() == null ? Map.of() : request.grains());
        grains.put("id", request.minionId());
        Compilation c = new Compilation(request, grains, s, merge);
        PillarTop top = c.readTops();
        Map<String, Object> groups = nodegroups.get();
        Map<String, List<PillarTop.Entry>> matches = top.matching(new MinionFacts(request.minionId(), grains),
                request.pillarenv(), groups == null ? Map.of() : groups, c.errors);
        Map<String, Object> pillar = PillarMerge.deepCopy(request.override());
        for (Map.Entry<String, List<PillarTop.Entry>> env : matches.entrySet()) {
            pillar = c.renderSaltenv(env.getKey(), PillarTop.slsOf(env.getValue()), top.ignoredMissing(env.getKey()), pillar);
        }
        if (!c.errors.isEmpty()) {
            pillar.put("_errors", List.copyOf(c.errors));
        }
        if (!request.override().isEmpty()) {
            pillar = merge.merge(pillar, request.override());
        }
        return pillar;
    }

    /** One compile: its settings, its errors, and the SLS files rendered so far per saltenv (Salt's {@code mods}). */
    private final class Compilation {
        final Request request;
        final Map<String, Object> grains;
        final PillarSettings settings;
        final PillarMerge merge;
        final List<String> errors = new ArrayList<>();
        final PillarRenderErrors report;

        Compilation(Request request, Map<String, Object> grains, PillarSettings settings, PillarMerge merge) {
            this.request = request;
            this.grains = grains;
            this.settings = settings;
            this.merge = merge;
            this.report = new PillarRenderErrors(request.minionId(), settings.safeRenderError(), errors);
        }

        /** Salt's {@code get_tops}: every saltenv's top file; only the asked one with the {@code none} strategy. */
        PillarTop readTops() {
            List<String> saltenvs = new ArrayList<>();
            if (request.pillarenv() != null) {
                if (files.hasSaltenv(request.pillarenv())) {
                    saltenvs.add(request.pillarenv());
                }
            } else if (settings.mergingStrategy().equals("none")) {
                saltenvs.add(request.saltenv() == null ? "base" : request.saltenv());
            } else {
                saltenvs.addAll(files.saltenvs());
            }
            PillarTop top = new PillarTop();
            for (String saltenv : saltenvs) {
                try {
                    byte[] bytes = files.read(TOP, saltenv).orElse(null);
                    if (bytes != null) {
                        top.add(renderer.render(new String(bytes, StandardCharsets.UTF_8), context(saltenv, "top", TOP)), errors);
                    }
                } catch (StatesException e) {
                    report.topFailed(saltenv, e);
                }
            }
            return top;
        }

        /** Salt's {@code render_pillar} for one saltenv: globs expanded, each SLS rendered and merged in order. */
        Map<String, Object> renderSaltenv(String saltenv, List<String> names, java.util.Set<String> ignored,
                Map<String, Object> pillar) {
            List<String> available = files.slsNames(saltenv);
            List<String> expanded = new ArrayList<>();
            for (String name : names) {
                List<String> found = glob(available, name);
                expanded.addAll(found.isEmpty() ? List.of(name) : found);
            }
            Map<String, Map<String, Object>> done = new LinkedHashMap<>();
            Map<String, Object> merged = pillar;
            for (String sls : expanded) {
                Map<String, Object> data = renderSls(saltenv, sls, ignored, available, done, Map.of());
                if (data != null) {
                    merged = merge.merge(merged, data);
                }
            }
            return merged;
        }

        /** Salt's {@code render_pstate}: one SLS, its includes merged under it (the SLS's own values win). */
        Map<String, Object> renderSls(String saltenv, String sls, java.util.Set<String> ignored, List<String> available,
                Map<String, Map<String, Object>> done, Map<String, Object> defaults) {
            PillarFiles.Sls file;
            try {
                file = files.sls(sls, saltenv).orElse(null);
            } catch (StatesException e) {
                // an SLS name that would leave the roots ("../x"): refused, and named (it comes from the top file)
                errors.add("Specified SLS '" + sls + "' in environment '" + saltenv + "' is not a valid SLS name");
                done.put(sls, null);
                return null;
            }
            if (file == null) {
                if (!ignored.contains(sls) && files.hasSaltenv(saltenv)) {
                    errors.add("Specified SLS '" + sls + "' in environment '" + saltenv + "' is not available on the salt master");
                }
                done.put(sls, null);
                return null;
            }
            Map<String, Object> state;
            try {
                state = new LinkedHashMap<>(renderer.render(new String(file.bytes(), StandardCharsets.UTF_8),
                        context(saltenv, sls, file.path()), defaults));
            } catch (StatesException e) {
                report.slsFailed(sls, saltenv, e);
                done.put(sls, null);
                return null;
            }
            done.put(sls, state);
            if (!state.containsKey("include")) {
                return state.isEmpty() ? null : state;
            }
            Object include = state.remove("include");
            if (!(include instanceof List<?> list)) {
                errors.add("Include Declaration in SLS '" + sls + "' is not formed as a list");
                return state;
            }
            List<Map<String, Object>> layers = new ArrayList<>();
            for (Object item : list) {
                includeOne(saltenv, sls, file.path(), item, ignored, available, done, layers);
            }
            layers.add(state); // merged last: the including SLS's own values are authoritative
            Map<String, Object> result = null;
            for (Map<String, Object> layer : layers) {
                result = result == null ? layer : merge.merge(result, layer);
            }
            return result;
        }

        @SuppressWarnings("unchecked")
        private void includeOne(String saltenv, String sls, String path, Object item, java.util.Set<String> ignored,
                List<String> available, Map<String, Map<String, Object>> done, List<Map<String, Object>> layers) {
            String sub;
            Map<String, Object> subDefaults = Map.of();
            String key = null;
            if (item instanceof Map<?, ?> m && m.size() == 1) {
                Map.Entry<?, ?> e = m.entrySet().iterator().next();
                sub = String.valueOf(e.getKey());
                if (e.getValue() instanceof Map<?, ?> options) {
                    if (options.get("defaults") instanceof Map<?, ?> d) {
                        subDefaults = (Map<String, Object>) d;
                    }
                    key = options.get("key") == null ? null : String.valueOf(options.get("key"));
                }
            } else if (item instanceof String s) {
                sub = s;
            } else {
                errors.add("Include Declaration in SLS '" + sls + "' names something that is not an SLS: " + typeOf(item));
                return;
            }
            List<String> candidates = new ArrayList<>(glob(available, stripDots(sub).replace('/', '.')));
            if (sub.startsWith(".")) {
                List<String> parts = new ArrayList<>(List.of(sls.split("\\.")));
                if (!path.endsWith("/init.sls")) {
                    parts.remove(parts.size() - 1);
                }
                parts.add(sub.substring(1));
                candidates.addAll(glob(available, String.join(".", parts)));
            }
            if (candidates.isEmpty()) {
                candidates.add(sub);
            }
            for (String one : new java.util.LinkedHashSet<>(candidates)) {
                Map<String, Object> nstate = done.containsKey(one) ? done.get(one)
                        : renderSls(saltenv, one, ignored, available, done, subDefaults);
                if (nstate == null || nstate.isEmpty()) {
                    continue;
                }
                Map<String, Object> layer = nstate;
                if (key != null) {
                    List<String> fragments = List.of(key.split(":"));
                    for (int i = fragments.size() - 1; i >= 0; i--) {
                        Map<String, Object> wrapped = new LinkedHashMap<>();
                        wrapped.put(fragments.get(i), layer);
                        layer = wrapped;
                    }
                }
                layers.add(layer);
            }
        }

        private RenderContext context(String saltenv, String sls, String path) {
            Map<String, Object> opts = new LinkedHashMap<>();
            opts.put("id", request.minionId());
            opts.put("saltenv", request.saltenv());
            opts.put("pillarenv", request.pillarenv());
            return new RenderContext(grains, Map.of(), opts, saltenv, sls, path, FunctionCaller.NONE);
        }
    }

    /** Python's fnmatch.filter over the SLS names; a name without wildcards matches only itself. */
    private static List<String> glob(List<String> available, String pattern) {
        Pattern p = Glob.compile(pattern);
        return available.stream().filter(n -> p.matcher(n).matches()).toList();
    }

    private static String stripDots(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == '.') {
            i++;
        }
        return s.substring(i);
    }

    private static String typeOf(Object o) {
        return o == null ? "None" : o instanceof Map<?, ?> ? "a dictionary" : o instanceof List<?> ? "a list" : o.getClass().getSimpleName();
    }
}
