package io.jsalt.modules;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The pillar of the state run the current thread is in. Salt's state run gives its execution modules the pillar it
 * renders with ({@code __pillar__}: compiled afresh, with the run's {@code pillar=} on top), so a template's
 * {@code salt['pillar.get']} sees the same values as its {@code pillar[...]}; the minion's pillar module reads this
 * before the pillar the minion holds.
 */
public final class RunPillar {
    private static final ThreadLocal<Map<String, Object>> CURRENT = new ThreadLocal<>();

    private RunPillar() {
    }

    /** Runs {@code body} with {@code pillar} as the run's pillar on this thread; nested runs restore the outer one. */
    public static <T> T during(Map<String, Object> pillar, Supplier<T> body) {
        Map<String, Object> outer = CURRENT.get();
        CURRENT.set(pillar);
        try {
            return body.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /** The pillar of the run this thread is in; empty outside a state run. */
    public static Optional<Map<String, Object>> current() {
        return Optional.ofNullable(CURRENT.get());
    }
}
