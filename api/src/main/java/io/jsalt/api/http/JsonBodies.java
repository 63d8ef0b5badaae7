package io.jsalt.api.http;

import io.jsalt.api.ApiException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.util.ajax.JSON;

/**
 * Request bodies as salt-api reads them: JSON ({@code application/json}) as it is, urlencoded forms as ONE
 * chunk whose repeated keys become lists (salt-api's urlencoded_processor wraps the form in a list), and
 * answers written as JSON. YAML bodies are read by {@link YamlBodies}.
 */
final class JsonBodies {
    private JsonBodies() {}

    /** The body as salt-api's lowstate: a List for JSON arrays and for forms, a Map for a JSON object. */
    static Object parse(String contentType, String body) {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (type.startsWith("application/json")) {
            try {
                return plain(new JSON().fromJSON(body));
            } catch (RuntimeException e) {
                throw ApiException.badRequest("Invalid JSON document");
            }
        }
        if (YamlBodies.isYaml(type)) {
            return plain(YamlBodies.parse(body));
        }
        if (type.isEmpty() || type.startsWith("application/x-www-form-urlencoded")) {
            return List.of(form(body));
        }
        throw new ApiException(415, "Content type not supported: " + contentType);
    }

    static Map<String, Object> form(String body) {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (body == null || body.isEmpty()) {
            return fields;
        }
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            fields.merge(key, value, (old, added) -> {
                List<Object> list = old instanceof List<?> l ? new ArrayList<>(l) : new ArrayList<>(List.of(old));
                list.add(added);
                return list;
            });
        }
        return fields;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("malformed urlencoded body");
        }
    }

    static String write(Object value) {
        return new JSON().toJSON(plainNumbers(value));
    }

    /** Jetty writes a double as Double.toString (1.7E9); Salt's clients get plain decimals, as Python writes them. */
    private static Object plainNumbers(Object value) {
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? new JSON.Literal(java.math.BigDecimal.valueOf(d).toPlainString()) : null;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), plainNumbers(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(v -> copy.add(plainNumbers(v)));
            return copy;
        }
        return value;
    }

    /** Jetty's parser gives Object[] for arrays: make them Lists, all the way down. */
    @SuppressWarnings("unchecked")
    private static Object plain(Object value) {
        if (value instanceof Object[] array) {
            List<Object> list = new ArrayList<>();
            Arrays.stream(array).forEach(v -> list.add(plain(v)));
            return list;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), plain(v)));
            return copy;
        }
        return value;
    }
}
