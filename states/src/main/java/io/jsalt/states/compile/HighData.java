package io.jsalt.states.compile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Salt's high data, as {@code state.show_sls} and {@code state.show_highstate} return it: each id to its state
 * declarations, each a list of single-key argument dictionaries with the function where it was written (after
 * the arguments for {@code state.fun}) and {@code {order: N}} last, plus {@code __sls__} and {@code __env__}.
 * It is taken after {@code extend} and {@code exclude}, with the requisites as written ({@code _in} forms stay on
 * the state that wrote them), as Salt 3006 shows it.
 */
final class HighData {
    private HighData() {
    }

    static Map<String, Object> of(List<Declaration> declarations) {
        Map<String, Object> high = new LinkedHashMap<>();
        for (Declaration d : declarations) {
            @SuppressWarnings("unchecked")
            Map<String, Object> body = (Map<String, Object>) high.computeIfAbsent(d.id, k -> new LinkedHashMap<>());
            List<Object> items = new ArrayList<>();
            d.args.forEach((key, value) -> items.add(single(key, value)));
            if (d.fun != null) {
                items.add(Math.min(d.funAt, items.size()), d.fun);
            }
            if (!d.args.containsKey("order")) {
                items.add(single("order", d.order)); // an order written in the SLS stays where it was written
            }
            body.put(d.state, items);
            body.put("__sls__", d.sls);
            body.put("__env__", d.saltenv);
        }
        // Salt adds __sls__ and __env__ after the declarations
        high.replaceAll((id, body) -> moveDunderLast(castMap(body)));
        return high;
    }

    private static Map<String, Object> single(String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(key, value);
        return m;
    }

    private static Map<String, Object> moveDunderLast(Map<String, Object> body) {
        Map<String, Object> out = new LinkedHashMap<>();
        body.forEach((k, v) -> {
            if (!k.startsWith("__")) {
                out.put(k, v);
            }
        });
        out.put("__sls__", body.get("__sls__"));
        out.put("__env__", body.get("__env__"));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object body) {
        return (Map<String, Object>) body;
    }
}
