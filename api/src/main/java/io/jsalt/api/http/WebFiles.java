package io.jsalt.api.http;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What jsalt-api serves as files beside the API, from salt-api's {@code rest_cherrypy} keys: the console (or
 * the operator's own {@code app} page) at {@code app_path}, and the folder {@code static} under
 * {@code static_path}. The checks here run once, at start: each URL path is one or more plain segments that
 * no API endpoint, the webhook URL or the other path already claims, and each file or folder is there and
 * readable.
 *
 * @param appPath    {@code rest_cherrypy:app_path} (salt-api's default {@code /app})
 * @param app        {@code rest_cherrypy:app}: an HTML file served at app_path instead of the built-in console, or null
 * @param staticPath {@code rest_cherrypy:static_path} (salt-api's default {@code /static})
 * @param staticDir  {@code rest_cherrypy:static}: the folder served under static_path, or null (nothing served there)
 */
public record WebFiles(String appPath, Path app, String staticPath, Path staticDir) {
    private static final Pattern URL_PATH = Pattern.compile("(/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+");
    /** The first segments the API answers itself (salt-api's url_map), never shadowed by files; webhook_url is checked apart. */
    private static final Set<String> API_SEGMENTS = Set.of("login", "logout", "token", "minions", "run", "jobs", "keys",
            "events", "stats", "ws");
    /** salt-api's defaults; after the patterns above, which its checks use while the class initialises. */
    public static final WebFiles DEFAULTS = new WebFiles("/app", null, "/static", null);

    /** A value refused, with the key it came from. */
    public static final class Refused extends IllegalArgumentException {
        private final String key;

        Refused(String key, String expected) {
            super(expected);
            this.key = key;
        }

        /** The rest_cherrypy key whose value is refused. */
        public String key() {
            return key;
        }
    }

    /** Checks the whole: the URL paths against each other and the API, the file and folder on disk. */
    public WebFiles {
        urlPath("app_path", appPath);
        urlPath("static_path", staticPath);
        if (within(appPath, staticPath) || within(staticPath, appPath)) {
            throw new Refused("static_path", "a URL path apart from app_path " + appPath);
        }
        if (app != null && !(app.isAbsolute() && Files.isRegularFile(app) && Files.isReadable(app))) {
            throw new Refused("app", "a readable HTML file, by its absolute path");
        }
        if (staticDir != null && !(staticDir.isAbsolute() && Files.isDirectory(staticDir) && Files.isReadable(staticDir))) {
            throw new Refused("static", "a readable folder, by its absolute path");
        }
    }

    /** Refuses a path that would hide the webhook URL or that lies under it. */
    public void checkAgainstWebhook(String webhookUrl) {
        String hook = webhookUrl.replaceAll("/+$", "");
        if (within(appPath, hook) || within(hook, appPath)) {
            throw new Refused("app_path", "a URL path apart from webhook_url " + webhookUrl);
        }
        if (within(staticPath, hook) || within(hook, staticPath)) {
            throw new Refused("static_path", "a URL path apart from webhook_url " + webhookUrl);
        }
    }

    /**
     * A URL prefix as a config key may give it: {@code /} then plain segments (letters, digits, {@code . _ ~ -},
     * not starting with a dot), no trailing slash, and not one of the API's own endpoints.
     */
    private static void urlPath(String key, String path) {
        if (path == null || !URL_PATH.matcher(path).matches()) {
            throw new Refused(key, "a URL path such as /app: '/' then names of letters, digits, '.', '_', '~', '-' "
                    + "(not starting with '.'), no trailing '/'");
        }
        String first = path.substring(1).split("/")[0];
        if (API_SEGMENTS.contains(first)) {
            throw new Refused(key, "a URL path outside the API's own /" + first);
        }
    }

    /** True when {@code path} is {@code prefix} or lies below it, segment-wise. */
    static boolean within(String path, String prefix) {
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }
}
