package io.jsalt.states.compile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's low data, as {@code state.show_low_sls} returns it: one dictionary per state call, in definition order
 * (not the run order requisites make), with {@code state}, {@code name}, {@code __sls__}, {@code __env__},
 * {@code __id__}, the arguments and requisites as written ({@code _in} forms on the state that wrote them),
 * {@code order} and {@code fun}. A call from a {@code names} list has order {@code N + place/10000}, as Salt's
 * {@code name_order} makes it.
 */
final class LowData {
    private LowData() {
    }

    static List<Map<String, Object>> of(ChunkBuilder built) {
        List<StateChunk> sorted = built.sorted();
        List<Map<String, Object>> low = new ArrayList<>();
        for (StateChunk c : sorted) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("state", c.state());
            m.put("name", c.name());
            m.put("__sls__", c.sls());
            m.put("__env__", c.saltenv());
            m.put("__id__", c.id());
            m.putAll(c.args());
            for (Requisite r : c.requisites()) {
                add(m, r.kind().key(), r);
            }
            for (ChunkBuilder.InRequisite in : built.ins) {
                if (in.source() == c) {
                    add(m, in.requisite().kind().key() + "_in", in.requisite());
                }
            }
            Integer place = built.nameOrder.get(c);
            m.put("order", place == null ? (Object) c.order() : (Object) (c.order() + place / 10000.0));
            m.put("fun", c.fun());
            low.add(m);
        }
        return low;
    }

    @SuppressWarnings("unchecked")
    private static void add(Map<String, Object> m, String key, Requisite r) {
        List<Object> list = (List<Object>) m.computeIfAbsent(key, k -> new ArrayList<>());
        list.add(r.type() == null ? r.target() : Map.of(r.type(), r.target()));
    }
}
