package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import io.jsalt.master.files.SafePath;
import io.jsalt.transport.message.UnsafePathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * salt-api's {@code static} folder, served under {@code static_path}. The rest of the request path is joined
 * to the folder by the project's one validated join ({@link SafePath}: no {@code ..}, {@code .} or empty
 * segment, and the file, symlinks resolved, inside the folder's real path), so a request never leaves the
 * folder; salt-api (CherryPy's staticdir) follows a symlink out of it. Only regular files of the types below
 * are served: anything else, a folder or a missing file is a 404, a path that tries to leave is a 403.
 */
final class StaticFiles {
    /** The types served, by file name extension; a file of another type is not served at all. */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("html", "text/html;charset=utf-8"),
            Map.entry("htm", "text/html;charset=utf-8"),
            Map.entry("css", "text/css;charset=utf-8"),
            Map.entry("js", "text/javascript;charset=utf-8"),
            Map.entry("mjs", "text/javascript;charset=utf-8"),
            Map.entry("json", "application/json"),
            Map.entry("txt", "text/plain;charset=utf-8"),
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("gif", "image/gif"),
            Map.entry("ico", "image/x-icon"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("woff2", "font/woff2"));
    private static final Map<String, String> HEADERS = Map.of("X-Content-Type-Options", "nosniff");
    /** An SVG opened by itself is a document that may run script in the API's origin: it gets none. */
    private static final Map<String, String> SVG_HEADERS = Map.of("X-Content-Type-Options", "nosniff",
            "Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");

    /** A file to send: its real path, its type and the headers that go with it. */
    record Found(Path file, String contentType, Map<String, String> headers) {}

    private final String staticPath;
    private final Path dir;

    /** @param dir the folder, or null when {@code static} is not set (nothing is served) */
    StaticFiles(String staticPath, Path dir) {
        this.staticPath = staticPath;
        this.dir = dir;
    }

    /**
     * The file a request path names under static_path: empty when the path is not under static_path (not ours),
     * a 404 when there is no such file of a served type.
     *
     * @throws ApiException 404, or 403 for a path that would leave the folder
     */
    Optional<Found> find(String path) {
        if (dir == null || !WebFiles.within(path, staticPath)) {
            return Optional.empty();
        }
        String relative = path.substring(staticPath.length()).replaceFirst("^/", "");
        String type = TYPES.get(extension(relative));
        if (type == null) {
            throw notFound(path);
        }
        Path file;
        try {
            file = SafePath.join(dir, relative).orElseThrow(() -> notFound(path));
        } catch (UnsafePathException e) {
            throw new ApiException(403, "The path '" + path + "' is not allowed.");
        }
        return Optional.of(new Found(file, type, type.equals("image/svg+xml") ? SVG_HEADERS : HEADERS));
    }

    private static String extension(String name) {
        int slash = name.lastIndexOf('/');
        int dot = name.lastIndexOf('.');
        return dot > slash + 1 ? name.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
    }

    private static ApiException notFound(String path) {
        return new ApiException(404, "The path '" + path + "' was not found.");
    }
}
