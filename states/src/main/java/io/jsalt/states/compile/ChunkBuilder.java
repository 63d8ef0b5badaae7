package io.jsalt.states.compile;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns declarations into state calls (Salt's {@code compile_high_data}): one per {@code name} (or per entry of
 * {@code names}), with the requisites split off the arguments. The {@code _in} forms are kept apart: they are
 * added to their targets once every chunk exists.
 */
final class ChunkBuilder {
    /** Arguments Salt interprets itself and that jsalt does not honour yet: refused rather than ignored. */
    private static final Set<String> NOT_YET = Set.of("parallel", "retry", "reload_modules");

    /** A chunk's {@code _in} requisite, pointing from {@code source} to whatever {@code requisite} names. */
    record InRequisite(StateChunk source, Requisite requisite) {
    }

    final List<StateChunk> chunks = new ArrayList<>();
    private final StateOrder order;
    final List<InRequisite> ins = new ArrayList<>();
    /** The place of a chunk in its declaration's {@code names}, from 1 (Salt's {@code name_order}). */
    final Map<StateChunk, Integer> nameOrder = new IdentityHashMap<>();

    /** @param all every declaration of the run: an {@code order: last} is placed after the highest order of all */
    ChunkBuilder(List<Declaration> all) {
        this.order = new StateOrder(all);
    }

    /** The chunks in Salt's order ({@code order_chunks}): by order, a names list as written, then by state, name, fun. */
    List<StateChunk> sorted() {
        List<StateChunk> sorted = new ArrayList<>(chunks);
        sorted.sort(java.util.Comparator.comparingInt(StateChunk::order)
                .thenComparingInt(c -> nameOrder.getOrDefault(c, 0))
                .thenComparing(c -> c.state() + c.name() + c.fun()));
        return sorted;
    }

    void add(Declaration decl) {
        Map<String, Object> args = new LinkedHashMap<>();
        List<Requisite> requisites = new ArrayList<>();
        List<Requisite> inForms = new ArrayList<>();
        for (Map.Entry<String, Object> arg : decl.args.entrySet()) {
            String key = arg.getKey();
            if (RequisiteKind.unsupported(key) || NOT_YET.contains(key)) {
                throw new StateCompileException("'" + key + "' in ID '" + decl.id + "' in SLS '" + decl.sls
                        + "' is not supported by jsalt yet");
            }
            var kind = RequisiteKind.of(key);
            if (kind.isPresent()) {
                (key.endsWith("_in") ? inForms : requisites).addAll(requisites(kind.get(), arg.getValue(), decl));
            } else if (!key.equals("name") && !key.equals("names") && !key.equals("order")) {
                args.put(key, arg.getValue());
            }
        }
        Object names = decl.args.get("names");
        if (names == null) {
            Object name = decl.args.getOrDefault("name", decl.id);
            addChunk(decl, String.valueOf(name), args, requisites, inForms);
            return;
        }
        if (!(names instanceof List<?> list)) {
            throw new StateCompileException("'names' in ID '" + decl.id + "' in SLS '" + decl.sls + "' is not a list");
        }
        for (Object entry : list) {
            int before = chunks.size();
            if (entry instanceof Map<?, ?> m && m.size() == 1) {
                // - name: [{arg: value}, ...] gives that name its own arguments
                Map.Entry<?, ?> e = m.entrySet().iterator().next();
                Map<String, Object> own = new LinkedHashMap<>(args);
                for (Object extra : e.getValue() instanceof List<?> l ? l : List.of()) {
                    if (extra instanceof Map<?, ?> em) {
                        em.forEach((k, v) -> own.put(String.valueOf(k), v));
                    }
                }
                addChunk(decl, String.valueOf(e.getKey()), own, requisites, inForms);
            } else {
                addChunk(decl, String.valueOf(entry), args, requisites, inForms);
            }
            nameOrder.put(chunks.get(before), list.indexOf(entry) + 1);
        }
    }

    private void addChunk(Declaration decl, String name, Map<String, Object> args, List<Requisite> requisites,
            List<Requisite> inForms) {
        StateChunk chunk = new StateChunk(decl.id, decl.sls, decl.state, decl.fun, name, order.of(decl),
                new LinkedHashMap<>(args), new ArrayList<>(requisites), decl.saltenv);
        chunks.add(chunk);
        inForms.forEach(r -> ins.add(new InRequisite(chunk, r)));
    }

    private static List<Requisite> requisites(RequisiteKind kind, Object value, Declaration decl) {
        List<Requisite> out = new ArrayList<>();
        for (Object item : value instanceof List<?> list ? list : List.of(value)) {
            if (item instanceof String target) {
                out.add(new Requisite(kind, null, target));
            } else if (item instanceof Map<?, ?> m && m.size() == 1) {
                Map.Entry<?, ?> e = m.entrySet().iterator().next();
                out.add(new Requisite(kind, String.valueOf(e.getKey()), String.valueOf(e.getValue())));
            } else {
                throw new StateCompileException("Requisite declaration " + item + " in state '" + decl.id
                        + "' in SLS '" + decl.sls + "' is not formed as a single key dictionary or a string");
            }
        }
        return out;
    }
}
