package io.jsalt.master.auth;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code external_auth} section as Salt writes it: per backend ({@code file}, {@code pam}, ...) a mapping
 * of user names (exact or glob), {@code group%} and {@code *} to their rights, plus the backend's own
 * {@code ^option} keys. {@link #authList} mirrors Salt's {@code fill_auth_list}.
 */
public final class ExternalAuth {
    private final Map<String, Map<String, Object>> backends;

    /** @param section the {@code external_auth} mapping; a malformed backend is refused with its name */
    public ExternalAuth(Map<String, Object> section) {
        Map<String, Map<String, Object>> copy = new LinkedHashMap<>();
        section.forEach((backend, value) -> {
            if (!(value instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException("external_auth:" + backend + " must be a mapping of users to their rights");
            }
            Map<String, Object> users = new LinkedHashMap<>();
            map.forEach((k, v) -> users.put(String.valueOf(k), v));
            copy.put(backend, users);
        });
        this.backends = Map.copyOf(copy);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ExternalAuth e && e.backends.equals(backends);
    }

    @Override
    public int hashCode() {
        return backends.hashCode();
    }

    public boolean enabled(String backend) {
        return backends.containsKey(backend);
    }

    /** The backend's {@code ^key} options, without the caret. */
    public Map<String, Object> options(String backend) {
        Map<String, Object> options = new LinkedHashMap<>();
        backends.getOrDefault(backend, Map.of()).forEach((k, v) -> {
            if (k.startsWith("^")) {
                options.put(k.substring(1), v);
            }
        });
        return options;
    }

    /**
     * The rights of {@code user} in {@code groups}: every entry whose name matches, the groups' entries, and
     * {@code *} only when no name matched (Salt without {@code permissive_acl}). Empty when the backend is off.
     */
    public AuthList authList(String backend, String user, List<String> groups) {
        List<Object> rights = new ArrayList<>();
        boolean nameMatched = false;
        for (Map.Entry<String, Object> e : backends.getOrDefault(backend, Map.of()).entrySet()) {
            String name = e.getKey();
            if (name.startsWith("^") || name.equals("*")) {
                continue;
            }
            if (name.endsWith("%")) {
                if (groups.contains(name.substring(0, name.length() - 1))) {
                    addAll(rights, e.getValue());
                }
            } else if (nameMatches(name, user)) {
                nameMatched = true;
                addAll(rights, e.getValue());
            }
        }
        if (!nameMatched) {
            Optional.ofNullable(backends.getOrDefault(backend, Map.of()).get("*")).ifPresent(v -> addAll(rights, v));
        }
        return new AuthList(rights);
    }

    private static void addAll(List<Object> rights, Object value) {
        if (value instanceof List<?> list) {
            list.stream().filter(x -> x != null).forEach(rights::add);
        } else if (value != null) {
            rights.add(value);
        }
    }

    /** Salt's expr_match: the same name, a glob, or a regex matching the whole name. */
    static boolean nameMatches(String pattern, String user) {
        if (pattern.equals(user)) {
            return true;
        }
        try {
            if (FileSystems.getDefault().getPathMatcher("glob:" + pattern.replace("/", "")).matches(Path.of(user.replace("/", "")))) {
                return true;
            }
        } catch (RuntimeException e) {
            // not a glob (an unbalanced bracket, a NUL): it may still be a regex
        }
        return AuthList.matches(pattern, user);
    }
}
