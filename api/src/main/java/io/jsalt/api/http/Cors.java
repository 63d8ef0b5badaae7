package io.jsalt.api.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cross-origin requests as salt-api's {@code cors_tool}, limited to the origins named in
 * {@code rest_cherrypy:cors_origin} ({@code '*'}, one origin, or a list; none: no CORS headers at all).
 * salt-api 3006.8 echoes any {@code Origin} with credentials allowed; jsalt-api only answers the configured
 * ones, and for {@code '*'} sends {@code *} without credentials. A preflight ({@code OPTIONS}) is answered
 * 200 with the methods and headers salt-api allows, and goes no further.
 */
final class Cors {
    static final String ALLOW_METHODS = "GET, POST";
    static final String ALLOW_HEADERS = "Content-Type, X-Auth-Token, X-Requested-With";

    private final List<String> origins;

    Cors(List<String> origins) {
        this.origins = List.copyOf(origins);
    }

    /** Whether a page of {@code origin} may act with the user's credentials (listed by name: {@code '*'} gives no credentials). */
    boolean allowsCredentials(String origin) {
        return origin != null && !origin.equals("*") && origins.contains(origin);
    }

    /** The headers for a request from {@code origin}; empty when CORS is off or the origin is not allowed. */
    Map<String, String> headers(String origin, String method, String requestedMethod) {
        Map<String, String> h = new LinkedHashMap<>();
        if (origin == null || origins.isEmpty()) {
            return h;
        }
        if (origins.contains("*")) {
            h.put("Access-Control-Allow-Origin", "*");
        } else if (origins.contains(origin)) {
            h.put("Access-Control-Allow-Origin", origin);
            h.put("Access-Control-Allow-Credentials", "true");
            h.put("Vary", "Origin");
        } else {
            return h;
        }
        // the browser must be able to read the login's token header
        h.put("Access-Control-Expose-Headers", "X-Auth-Token");
        if (method.equals("OPTIONS") && requestedMethod != null && List.of("GET", "POST").contains(requestedMethod)) {
            h.put("Access-Control-Allow-Methods", ALLOW_METHODS);
            h.put("Access-Control-Allow-Headers", ALLOW_HEADERS);
            h.put("Access-Control-Max-Age", "1400");
        }
        return h;
    }
}
