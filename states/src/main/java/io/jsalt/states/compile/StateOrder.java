package io.jsalt.states.compile;

import java.util.List;

/**
 * Salt's {@code order_chunks}: a declaration's place in the run, from its {@code order} argument or, without one,
 * its definition order ({@code state_auto_order}, from 10000). {@code order: N} is N; {@code first} is 0;
 * {@code last} comes after every other (the highest order + 100 + 1,000,000); a negative N counts back from
 * {@code last}; any other word is placed just after every numbered state. Requisites still run first what a state
 * needs, whatever its order.
 */
final class StateOrder {
    private final int cap;

    StateOrder(List<Declaration> all) {
        int c = 1;
        for (Declaration d : all) {
            Integer n = d.args.containsKey("order") ? integer(d.args.get("order")) : Integer.valueOf(d.order);
            if (n != null && n > c - 1 && n > 0) {
                c = n + 100;
            }
        }
        this.cap = c;
    }

    int of(Declaration decl) {
        if (!decl.args.containsKey("order")) {
            return decl.order;
        }
        Object written = decl.args.get("order");
        Integer n = integer(written);
        if (n == null) {
            if (written instanceof Number) {
                throw new StateCompileException("The order of ID '" + decl.id + "' in SLS '" + decl.sls
                        + "' must be a whole number, 'first' or 'last', not " + written);
            }
            return switch (String.valueOf(written)) {
                case "last" -> cap + 1_000_000;
                case "first" -> 0;
                default -> cap;
            };
        }
        return n < 0 ? cap + 1_000_000 + n : n;
    }

    /** The order as a whole number; null for a word (or a fraction, which jsalt refuses). */
    private static Integer integer(Object v) {
        if (v instanceof Integer || v instanceof Long) {
            return ((Number) v).intValue();
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            return (int) n.doubleValue();
        }
        return null;
    }
}
