package io.jsalt.api.http;

import java.util.Map;

/**
 * The body of an error answer, as salt-api's CherryPy writes it for an HTTPError: a small HTML page with the
 * status line and the message (clients such as pepper read the status code; people read the page).
 */
final class ErrorPage {
    private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(400, "Bad Request"),
            Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"),
            Map.entry(405, "Method Not Allowed"), Map.entry(406, "Not Acceptable"), Map.entry(409, "Conflict"), Map.entry(413, "Request Entity Too Large"),
            Map.entry(415, "Unsupported Media Type"), Map.entry(429, "Too Many Requests"),
            Map.entry(500, "Internal Server Error"), Map.entry(503, "Service Unavailable"), Map.entry(504, "Gateway Timeout"));

    private ErrorPage() {}

    static String reason(int status) {
        return REASONS.getOrDefault(status, "Error");
    }

    static String html(int status, String message) {
        String title = status + " " + reason(status);
        return "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" "
                + "\"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">\n<html>\n<head>\n"
                + "    <meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\"></meta>\n"
                + "    <title>" + title + "</title>\n</head>\n<body>\n"
                + "    <h2>" + title + "</h2>\n"
                + "    <p>" + escape(message) + "</p>\n</body>\n</html>\n";
    }

    /** Messages can carry a target or a function name from the request: never markup. */
    static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
