package io.jsalt.states.exec;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.states.StatesException;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The state top files, merged and matched as Salt's {@code HighState} does with its default
 * {@code top_file_merging_strategy: merge}: without a saltenv, {@code base}'s top.sls is read first and is
 * authoritative for every saltenv it names; each other saltenv's top.sls then adds only its own section, and
 * only when {@code base}'s did not define it. With a saltenv, only that saltenv's top.sls and section count.
 *
 * <p>A target is matched with {@code - match: X} ({@code compound} when none is given, as Salt's
 * {@code confirm_top}) by the minion's own matcher, the one it checks publications with.
 */
final class TopFile {
    /** Whether this minion is the target: a matcher name and an expression, as {@code ModuleContext.targets}. */
    interface Targeting {
        boolean targets(String matcher, Object expression);
    }

    private TopFile() {
    }

    /**
     * The SLS names the top files give this minion, by saltenv, each once, in the top files' order (Salt's
     * {@code top_matches}); empty when no top file gives it anything.
     *
     * @param onlySaltenv the run's saltenv when one was asked for, else null (every saltenv's top file)
     * @throws StatesException for a malformed top file or a target that cannot be matched
     */
    static Map<String, List<String>> matches(StateFiles files, SlsRenderer renderer, RenderContext context,
            String onlySaltenv, Targeting minion) {
        Map<String, Map<String, Object>> merged = merge(files, renderer, context, onlySaltenv);
        Map<String, List<String>> matches = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Object>> env : merged.entrySet()) {
            if (onlySaltenv != null && !onlySaltenv.equals(env.getKey())) {
                continue;
            }
            for (Map.Entry<String, Object> target : env.getValue().entrySet()) {
                List<?> body = target.getValue() instanceof List<?> l ? l : List.of(String.valueOf(target.getValue()));
                if (!matchesTarget(target.getKey(), body, minion, env.getKey())) {
                    continue;
                }
                List<String> names = matches.computeIfAbsent(env.getKey(), k -> new ArrayList<>());
                for (Object item : body) {
                    if (item instanceof String sls && !names.contains(sls)) {
                        names.add(sls);
                    }
                }
            }
        }
        matches.values().removeIf(List::isEmpty);
        return matches;
    }

    /** Salt's {@code _merge_tops_merge}: saltenv to its targets, in order. */
    private static Map<String, Map<String, Object>> merge(StateFiles files, SlsRenderer renderer, RenderContext context,
            String onlySaltenv) {
        List<String> envs = new ArrayList<>();
        if (onlySaltenv != null) {
            envs.add(onlySaltenv);
        } else {
            envs.add("base"); // Salt's _get_envs: base first, then the file server's, sorted
            files.fileEnvs().stream().filter(e -> !envs.contains(e)).forEach(envs::add);
        }
        Map<String, Map<String, Object>> merged = new LinkedHashMap<>();
        for (String env : envs) {
            Map<String, Object> top = render(files, renderer, context, env);
            for (Map.Entry<String, Object> section : top.entrySet()) {
                String saltenv = section.getKey();
                if (saltenv.equals("include")) {
                    continue; // top-file includes are not read by jsalt (docs/states.md)
                }
                boolean fromBase = env.equals("base") || env.equals(onlySaltenv);
                if (!fromBase && (!saltenv.equals(env) || merged.containsKey(saltenv))) {
                    continue; // Salt ignores it too (logged at debug there)
                }
                if (!(section.getValue() instanceof Map<?, ?> targets)) {
                    throw new StatesException("Top file of saltenv '" + env + "': the section '" + saltenv
                            + "' is not a dictionary of targets");
                }
                Map<String, Object> into = merged.computeIfAbsent(saltenv, k -> new LinkedHashMap<>());
                targets.forEach((tgt, body) -> into.put(String.valueOf(tgt), body));
            }
        }
        return merged;
    }

    private static Map<String, Object> render(StateFiles files, SlsRenderer renderer, RenderContext context, String env) {
        byte[] bytes = files.read("top.sls", env).orElse(null);
        if (bytes == null) {
            return Map.of();
        }
        RenderContext own = env.equals(context.saltenv()) ? context : context.withSaltenv(env);
        return renderer.render(new String(bytes, StandardCharsets.UTF_8), own.forFile("top", "top.sls"));
    }

    /** Salt's {@code confirm_top}: the last {@code - match:} of the body, {@code compound} without one. */
    private static boolean matchesTarget(String target, List<?> body, Targeting minion, String saltenv) {
        String matcher = "compound";
        for (Object item : body) {
            if (item instanceof Map<?, ?> m && m.containsKey("match")) {
                matcher = String.valueOf(m.get("match"));
            }
        }
        try {
            return minion.targets(matcher, target);
        } catch (CommandExecutionException e) {
            throw new StatesException("Top file of saltenv '" + saltenv + "': target '" + target + "' (match: " + matcher
                    + ") cannot be matched: " + e.getMessage());
        }
    }
}
