package io.jsalt.minion.files;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.transport.message.UnsafePathException;

/**
 * A {@code salt://path[?saltenv=env]} URL, as Salt's {@code salt.utils.url.parse} reads it: the query's
 * saltenv wins over the one the caller passes. A bare relative path is taken as {@code salt://path}.
 */
public record SaltUrl(String path, String saltenv) {
    private static final String SCHEME = "salt://";

    public static SaltUrl parse(String url, String defaultSaltenv) {
        if (url == null || url.isEmpty()) {
            throw new CommandExecutionException("no file given");
        }
        String rest = url.startsWith(SCHEME) ? url.substring(SCHEME.length()) : url;
        String saltenv = defaultSaltenv == null || defaultSaltenv.isEmpty() ? "base" : defaultSaltenv;
        int query = rest.indexOf('?');
        if (query >= 0) {
            String params = rest.substring(query + 1);
            rest = rest.substring(0, query);
            for (String param : params.split("&")) {
                if (param.startsWith("saltenv=") && param.length() > "saltenv=".length()) {
                    saltenv = param.substring("saltenv=".length());
                }
            }
        }
        try {
            return new SaltUrl(CachePath.requireRelative(rest), CachePath.requireSaltenv(saltenv));
        } catch (UnsafePathException e) {
            throw new CommandExecutionException("bad file URL " + url + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return SCHEME + path + ("base".equals(saltenv) ? "" : "?saltenv=" + saltenv);
    }
}
