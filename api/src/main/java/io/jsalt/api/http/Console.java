package io.jsalt.api.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The web console's static files, served from the jar at {@code app_path} (salt-api's default {@code /app}):
 * a fixed list of files, so no request path ever names a resource or a file by itself (the modules import
 * each other relatively, and the page names its script and style under the app_path it is served at). With
 * {@code app} set, that file is served instead for app_path and every path below it, as salt-api's
 * {@code App} does (a single-page app's own routes). The built-in page talks to the
 * API with the {@code X-Auth-Token} header and puts minion values in as text (see app.js). Its answers carry
 * a Content-Security-Policy that allows only this origin's own script and style (no inline script), and may
 * not be framed.
 */
final class Console {
    /** Where index.html names its own folder: replaced by app_path when it is served. */
    private static final String APP_PATH_MARK = "{{app_path}}";
    /** Where index.html names the root prefix, for the API calls of its script. */
    private static final String ROOT_PREFIX_MARK = "{{root_prefix}}";
    static final Map<String, String> SECURITY_HEADERS = Map.of(
            "Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                    + "img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            "X-Content-Type-Options", "nosniff",
            "Referrer-Policy", "no-referrer");
    /** Every file of the console, by its path under /app: the page, its style and its JavaScript modules. */
    private static final Map<String, String> FILES = Map.ofEntries(
            Map.entry("", "index.html"),
            Map.entry("/", "index.html"),
            Map.entry("/app.css", "app.css"),
            Map.entry("/app.js", "app.js"),
            Map.entry("/api.js", "api.js"),
            Map.entry("/args.js", "args.js"),
            Map.entry("/dom.js", "dom.js"),
            Map.entry("/output.js", "output.js"),
            Map.entry("/highstate.js", "highstate.js"),
            Map.entry("/minions.js", "minions.js"),
            Map.entry("/run.js", "run.js"),
            Map.entry("/jobs.js", "jobs.js"),
            Map.entry("/job.js", "job.js"),
            Map.entry("/events.js", "events.js"),
            Map.entry("/keys.js", "keys.js"),
            Map.entry("/supervision.js", "supervision.js"));

    /** The operator's own page: no CSP of ours (it may need inline script), but no sniffing either. */
    private static final Map<String, String> APP_HEADERS = Map.of("X-Content-Type-Options", "nosniff");

    record File(String contentType, byte[] bytes, Map<String, String> headers) {}

    private final String appPath;
    private final Path app;
    private final String rootPrefix;

    /**
     * @param app        the operator's page ({@code rest_cherrypy:app}), or null for the built-in console
     * @param rootPrefix {@code rest_cherrypy:root_prefix} without its trailing slash ({@code ""} at {@code /}):
     *                   where the browser sees the API and this console
     */
    Console(String appPath, Path app, String rootPrefix) {
        this.appPath = appPath;
        this.app = app;
        this.rootPrefix = rootPrefix;
    }

    /** The file for a path at or under app_path, or empty (a 404). */
    Optional<File> find(String path) {
        if (!WebFiles.within(path, appPath)) {
            return Optional.empty();
        }
        if (app != null) {
            return appPage();
        }
        String name = FILES.get(path.substring(appPath.length()));
        if (name == null) {
            return Optional.empty();
        }
        try (InputStream in = Console.class.getResourceAsStream("/io/jsalt/api/app/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the console's " + name + " is missing from the jar");
            }
            byte[] bytes = in.readAllBytes();
            if (name.equals("index.html")) {
                bytes = new String(bytes, StandardCharsets.UTF_8).replace(APP_PATH_MARK, rootPrefix + appPath)
                        .replace(ROOT_PREFIX_MARK, rootPrefix).getBytes(StandardCharsets.UTF_8);
            }
            return Optional.of(new File(type(name), bytes, SECURITY_HEADERS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * salt-api's {@code html_override}: with {@code app} set, a browser asking for a page anywhere outside
     * app_path and static_path gets the app (a single-page app's own routes, and {@code GET /} in a browser).
     * A page request is one whose {@code Accept} names {@code text/html} first, as a browser's navigation
     * does. salt-api 3006.8 (checked by WebFilesVsSaltApiTest) also answers the app, to any method, when there is
     * no {@code Accept} or {@code *}{@code /*} follows other types: a script's POST would then never run.
     */
    Optional<File> pageFor(String accept) {
        if (app == null || accept == null) {
            return Optional.empty();
        }
        String first = accept.split(",")[0].split(";")[0].strip();
        return first.equalsIgnoreCase("text/html") ? appPage() : Optional.empty();
    }

    /** The app file, read at each request as salt-api's serve_file does (an edit needs no restart); gone: a 404. */
    private Optional<File> appPage() {
        try {
            return Optional.of(new File("text/html;charset=utf-8", Files.readAllBytes(app), APP_HEADERS));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static String type(String name) {
        if (name.endsWith(".js")) {
            return "text/javascript;charset=utf-8";
        }
        return name.endsWith(".css") ? "text/css;charset=utf-8" : "text/html;charset=utf-8";
    }
}
