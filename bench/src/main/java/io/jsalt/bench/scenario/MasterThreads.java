package io.jsalt.bench.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A jsalt master's threads grouped by what they do on the request path, from the names {@code /proc} gives
 * them (the kernel's {@code comm}: cut at 15 characters, digits read as {@code N} by {@code TreeCpu}): where
 * the CPU of a burst of returns went, per return.
 */
final class MasterThreads {
    /** Role, then the name prefixes of its threads; a thread matching none is "other". */
    private static final Map<String, List<String>> ROLES = roles();

    private MasterThreads() {
    }

    private static Map<String, List<String>> roles() {
        Map<String, List<String>> roles = new LinkedHashMap<>();
        roles.put("mworkers", List.of("jsalt-mworker"));
        // the native request server's selector thread does the router's work and the request port's I/O both
        roles.put("router", List.of("jsalt-req-route", "jsalt-req-selec"));
        roles.put("job_cache_writer", List.of("jsalt-job-cache"));
        roles.put("io", List.of("iothread"));
        roles.put("jit", List.of("CN CompilerThre"));
        roles.put("gc", List.of("GC Thread", "GN "));
        return roles;
    }

    /** CPU milliseconds of the JIT compiler threads among {@code byThread}. */
    static long jitMillis(Map<String, Long> byThread) {
        return byThread.entrySet().stream().filter(e -> "jit".equals(role(e.getKey()))).mapToLong(Map.Entry::getValue).sum();
    }

    /** Microseconds of CPU per return by role (every role, then "other" and "total"), from CPU milliseconds by thread name. */
    static Map<String, Long> perReturnMicros(Map<String, Long> byThread, int returns) {
        Map<String, Long> millis = new LinkedHashMap<>();
        ROLES.keySet().forEach(r -> millis.put(r, 0L));
        millis.put("other", 0L);
        byThread.forEach((name, ms) -> millis.merge(role(name), ms, Long::sum));
        long total = millis.values().stream().mapToLong(Long::longValue).sum();
        millis.put("total", total);
        Map<String, Long> micros = new LinkedHashMap<>();
        millis.forEach((role, ms) -> micros.put(role, Math.round(ms * 1000.0 / Math.max(1, returns))));
        return micros;
    }

    static String role(String threadName) {
        for (Map.Entry<String, List<String>> e : ROLES.entrySet()) {
            if (e.getValue().stream().anyMatch(threadName::startsWith)) {
                return e.getKey();
            }
        }
        return "other";
    }
}
