package io.jsalt.states.exec;

import io.jsalt.states.StatesException;
import io.jsalt.states.files.StateFiles;
import io.jsalt.states.render.RenderContext;
import io.jsalt.states.render.SlsRenderer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code top.sls} of one saltenv, matched against this minion's id with globs (Salt's default matcher). Other
 * matchers ({@code - match: grain}, ...) are refused by name until they are built.
 */
final class TopFile {
    private TopFile() {
    }

    /** The SLS names the top file gives {@code minionId} in the context's saltenv; empty when there is no top file. */
    static List<String> mods(StateFiles files, SlsRenderer renderer, RenderContext context, String minionId) {
        byte[] bytes = files.read("top.sls", context.saltenv()).orElse(null);
        if (bytes == null) {
            return List.of();
        }
        Map<String, Object> top = renderer.render(new String(bytes, StandardCharsets.UTF_8),
                context.forFile("top", "top.sls"));
        List<String> mods = new ArrayList<>();
        if (!(top.get(context.saltenv()) instanceof Map<?, ?> targets)) {
            return mods;
        }
        for (Map.Entry<?, ?> target : targets.entrySet()) {
            String pattern = String.valueOf(target.getKey());
            List<String> names = new ArrayList<>();
            for (Object item : target.getValue() instanceof List<?> l ? l : List.of()) {
                if (item instanceof String s) {
                    names.add(s);
                } else if (item instanceof Map<?, ?> m && m.containsKey("match")) {
                    if (!"glob".equals(String.valueOf(m.get("match")))) {
                        throw new StatesException("top.sls: 'match: " + m.get("match") + "' is not supported by jsalt yet");
                    }
                }
            }
            if (FileSystems.getDefault().getPathMatcher("glob:" + pattern).matches(java.nio.file.Path.of(minionId))) {
                names.stream().filter(n -> !mods.contains(n)).forEach(mods::add);
            }
        }
        return mods;
    }
}
