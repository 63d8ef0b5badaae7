package io.jsalt.api.lowstate;

import io.jsalt.api.ApiException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One lowstate chunk as salt-api receives it: {@code client}, {@code tgt}, {@code tgt_type}, {@code fun},
 * {@code arg}, {@code kwarg}, {@code timeout}, {@code full_return}; other keys are the runner's or wheel's
 * keyword arguments (salt-api passes them through, e.g. {@code jid} for jobs.list_job, {@code match} for keys).
 *
 * @param givenArgs whether the chunk had {@code arg} and {@code kwarg} keys: Salt's wheel binds them only when it has
 *                  both, so a wheel call passes on what was given, not the empty defaults
 */
public record Lowstate(String client, Object tgt, String tgtType, String fun, List<Object> arg, Map<String, Object> kwarg,
        Integer timeout, boolean fullReturn, Map<String, Object> extra, boolean givenArgs) {

    static final int MAX_TIMEOUT = 86_400;
    private static final List<String> KNOWN = List.of("client", "tgt", "tgt_type", "fun", "arg", "kwarg", "timeout",
            "full_return", "token", "eauth", "username", "password");

    /** Reads a chunk; a missing client or fun, or a value of the wrong shape, is a 400. */
    public static Lowstate of(Map<String, Object> chunk) {
        String client = text(chunk, "client");
        String fun = text(chunk, "fun");
        Object arg = chunk.get("arg");
        List<Object> args = new ArrayList<>();
        if (arg instanceof List<?> l) {
            args.addAll(l);
        } else if (arg != null) {
            // salt-api makes a lone arg a list: the urlencoded form cannot say "list of one"
            args.add(arg);
        }
        Object kw = chunk.get("kwarg");
        Map<String, Object> kwarg = new LinkedHashMap<>();
        if (kw instanceof Map<?, ?> m) {
            m.forEach((k, v) -> kwarg.put(String.valueOf(k), v));
        } else if (kw != null) {
            throw ApiException.badRequest("kwarg must be a mapping");
        }
        Integer timeout = null;
        if (chunk.get("timeout") != null) {
            try {
                double seconds = Double.parseDouble(String.valueOf(chunk.get("timeout")));
                if (!(seconds >= 0 && seconds <= MAX_TIMEOUT)) {
                    // each waiting local call holds an HTTP worker: a day is the most anyone can ask for
                    throw ApiException.badRequest("timeout must be between 0 and " + MAX_TIMEOUT + " seconds");
                }
                timeout = (int) Math.ceil(seconds);
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("timeout must be a number of seconds");
            }
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        chunk.forEach((k, v) -> {
            if (!KNOWN.contains(k)) {
                extra.put(k, v);
            }
        });
        String tgtType = chunk.get("tgt_type") == null ? "glob" : String.valueOf(chunk.get("tgt_type"));
        boolean fullReturn = Boolean.TRUE.equals(chunk.get("full_return")) || "true".equalsIgnoreCase(String.valueOf(chunk.get("full_return")));
        return new Lowstate(client, chunk.get("tgt"), tgtType, fun, args, kwarg, timeout, fullReturn, extra,
                chunk.containsKey("arg") && chunk.containsKey("kwarg"));
    }

    private static String text(Map<String, Object> chunk, String key) {
        Object value = chunk.get(key);
        if (!(value instanceof String s) || s.isBlank()) {
            throw ApiException.badRequest("lowstate needs '" + key + "'");
        }
        return s;
    }
}
