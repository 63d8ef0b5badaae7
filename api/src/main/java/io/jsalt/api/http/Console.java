package io.jsalt.api.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * The web console's static files, served from the jar at {@code /app} (salt-api's default {@code app_path}):
 * a fixed list of files, so no request path ever names a resource or a file by itself (the modules import
 * each other by these same paths). The page talks to the
 * API with the {@code X-Auth-Token} header and puts minion values in as text (see app.js). Its answers carry
 * a Content-Security-Policy that allows only this origin's own script and style (no inline script), and may
 * not be framed.
 */
final class Console {
    static final String PATH = "/app";
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

    record File(String contentType, byte[] bytes) {}

    /** The file for a path under {@code /app}, or empty (a 404). */
    Optional<File> find(String path) {
        if (!path.equals(PATH) && !path.startsWith(PATH + "/")) {
            return Optional.empty();
        }
        String name = FILES.get(path.substring(PATH.length()));
        if (name == null) {
            return Optional.empty();
        }
        try (InputStream in = Console.class.getResourceAsStream("/io/jsalt/api/app/" + name)) {
            if (in == null) {
                throw new IllegalStateException("the console's " + name + " is missing from the jar");
            }
            return Optional.of(new File(type(name), in.readAllBytes()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String type(String name) {
        if (name.endsWith(".js")) {
            return "text/javascript;charset=utf-8";
        }
        return name.endsWith(".css") ? "text/css;charset=utf-8" : "text/html;charset=utf-8";
    }
}
