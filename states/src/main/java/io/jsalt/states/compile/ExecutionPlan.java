package io.jsalt.states.compile;

import io.jsalt.modules.builtin.Glob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chunks of a run in the order they execute, each with the chunks its requisites resolved to.
 *
 * <p>The order is Salt's: chunks by definition order (the calls of one {@code names} list in the order written, as
 * Salt's {@code name_order} keeps them), and a chunk whose requisites have not run yet runs them first (Salt's
 * {@code call_chunk} recursion). A requisite cycle, or an {@code _in} requisite that names nothing, is a
 * compile error; a chunk whose own requisite names nothing is kept with that requisite lost, and fails
 * alone when it runs (Salt's "The following requisites were not found").
 */
public final class ExecutionPlan {
    /** One resolved requisite: this chunk waits for {@code target} in the way {@code kind} says. */
    public record Edge(RequisiteKind kind, StateChunk target) {
    }

    /**
     * A {@code listen} (or {@code listen_in}) as written: {@code listener} runs its {@code mod_watch} at the end
     * of the run when one of {@code watched} changed something. {@code listener} is null, or {@code watched}
     * empty, when the requisite names nothing; Salt then reports a {@code Listen_Error} (for a
     * {@code listen_in}, only once its source changed).
     */
    public record Listen(StateChunk listener, List<StateChunk> watched, Requisite requisite) {
    }

    private final List<StateChunk> order;
    private final Map<StateChunk, List<Edge>> edges;
    private final Map<StateChunk, List<Requisite>> lost;
    private final List<Listen> listens;

    private ExecutionPlan(List<StateChunk> order, Map<StateChunk, List<Edge>> edges, Map<StateChunk, List<Requisite>> lost,
            List<Listen> listens) {
        this.order = List.copyOf(order);
        this.edges = edges;
        this.lost = lost;
        this.listens = List.copyOf(listens);
    }

    /** The run's {@code listen} requisites, in definition order of the states that wrote them. */
    public List<Listen> listens() {
        return listens;
    }

    /** The chunks in execution order. */
    public List<StateChunk> order() {
        return order;
    }

    /** What {@code chunk} waits for. */
    public List<Edge> requisitesOf(StateChunk chunk) {
        return edges.getOrDefault(chunk, List.of());
    }

    /** The requisites of {@code chunk} that name no state of the run. */
    public List<Requisite> lostRequisitesOf(StateChunk chunk) {
        return lost.getOrDefault(chunk, List.of());
    }

    /**
     * The part of this plan that runs the chunks of id {@code id} (Salt's {@code state.sls_id}): those chunks and
     * what they wait for, in this plan's order; empty when no chunk has that id.
     */
    public ExecutionPlan onlyId(String id) {
        Map<StateChunk, Boolean> keep = new IdentityHashMap<>();
        List<StateChunk> pending = new ArrayList<>(order.stream().filter(c -> c.id().equals(id)).toList());
        while (!pending.isEmpty()) {
            StateChunk chunk = pending.remove(pending.size() - 1);
            if (keep.put(chunk, true) == null) {
                requisitesOf(chunk).forEach(e -> pending.add(e.target()));
            }
        }
        List<Listen> kept = listens.stream().filter(l -> l.listener() != null && keep.containsKey(l.listener())).toList();
        return new ExecutionPlan(order.stream().filter(keep::containsKey).toList(), edges, lost, kept);
    }

    /** A plan of one chunk without requisites ({@code state.single}). */
    public static ExecutionPlan single(StateChunk chunk) {
        return of(List.of(chunk), List.of());
    }

    static ExecutionPlan of(List<StateChunk> chunks, List<ChunkBuilder.InRequisite> ins) {
        List<StateChunk> sorted = new ArrayList<>(chunks);
        // stable: the calls of one declaration's names keep the order written (Salt's name_order)
        sorted.sort(Comparator.comparingInt(StateChunk::order));
        Map<StateChunk, List<Edge>> edges = new IdentityHashMap<>();
        Map<StateChunk, List<Requisite>> lost = new IdentityHashMap<>();
        List<Listen> listens = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (StateChunk chunk : sorted) {
            for (Requisite requisite : chunk.requisites()) {
                List<StateChunk> targets = targets(requisite, chunk, sorted);
                if (requisite.kind() == RequisiteKind.LISTEN) {
                    listens.add(new Listen(chunk, targets, requisite));
                    continue;
                }
                if (targets.isEmpty()) {
                    lost.computeIfAbsent(chunk, c -> new ArrayList<>()).add(requisite);
                }
                targets.forEach(t -> addEdge(edges, chunk, requisite.kind(), t));
            }
            for (ChunkBuilder.InRequisite in : ins) {
                if (in.source() == chunk && in.requisite().kind() == RequisiteKind.LISTEN) {
                    // listen_in on A naming B is B listening to A; Salt reports a missing B only when A changed
                    List<StateChunk> listeners = targets(in.requisite(), chunk, sorted);
                    if (listeners.isEmpty()) {
                        listens.add(new Listen(null, List.of(chunk), in.requisite()));
                    }
                    listeners.forEach(l -> listens.add(new Listen(l, List.of(chunk), in.requisite())));
                }
            }
        }
        for (ChunkBuilder.InRequisite in : ins) {
            if (in.requisite().kind() == RequisiteKind.LISTEN) {
                continue;
            }
            List<StateChunk> targets = targets(in.requisite(), in.source(), sorted);
            if (targets.isEmpty()) {
                errors.add(missing(in.requisite().inForm(), in.source()));
            }
            // require_in on A naming B is B requiring A
            targets.forEach(t -> addEdge(edges, t, in.requisite().kind(), in.source()));
        }
        if (!errors.isEmpty()) {
            throw new StateCompileException(errors);
        }
        return new ExecutionPlan(runOrder(sorted, edges), edges, lost, listens);
    }

    /** {@code chunk} waits for {@code target}; a prereq also makes the target wait for {@code chunk}. */
    private static void addEdge(Map<StateChunk, List<Edge>> edges, StateChunk chunk, RequisiteKind kind, StateChunk target) {
        edges.computeIfAbsent(chunk, c -> new ArrayList<>()).add(new Edge(kind, target));
        if (kind == RequisiteKind.PREREQ) {
            edges.computeIfAbsent(target, c -> new ArrayList<>()).add(new Edge(RequisiteKind.PREREQUIRED, chunk));
        }
    }

    private static String missing(String requisite, StateChunk chunk) {
        return "Referenced state does not exist for requisite [" + requisite + "] in state [" + chunk.name()
                + "] in SLS [" + chunk.sls() + "]";
    }

    /** Salt matches a requisite's target with fnmatch on the id or the name ({@code - file: /etc/*}). */
    private static List<StateChunk> targets(Requisite requisite, StateChunk source, List<StateChunk> chunks) {
        List<StateChunk> out = new ArrayList<>();
        Glob glob = Glob.of(requisite.target());
        for (StateChunk c : chunks) {
            if (c == source) {
                continue;
            }
            boolean match;
            if (requisite.type() == null) {
                match = glob.matches(c.id()) || glob.matches(c.name());
            } else if (requisite.type().equals("sls")) {
                match = glob.matches(c.sls());
            } else if (requisite.type().equals("id")) {
                match = glob.matches(c.id());
            } else {
                match = c.state().equals(requisite.type()) && (glob.matches(c.id()) || glob.matches(c.name()));
            }
            if (match) {
                out.add(c);
            }
        }
        return out;
    }

    /** Definition order, each chunk preceded by what it waits for; a cycle is reported with its path. */
    private static List<StateChunk> runOrder(List<StateChunk> sorted, Map<StateChunk, List<Edge>> edges) {
        List<StateChunk> out = new ArrayList<>();
        Map<StateChunk, Boolean> state = new IdentityHashMap<>(); // false: visiting, true: done
        for (StateChunk chunk : sorted) {
            visit(chunk, edges, state, out, new ArrayList<>());
        }
        return out;
    }

    private static void visit(StateChunk chunk, Map<StateChunk, List<Edge>> edges, Map<StateChunk, Boolean> state,
            List<StateChunk> out, List<StateChunk> path) {
        Boolean seen = state.get(chunk);
        if (Boolean.TRUE.equals(seen)) {
            return;
        }
        path.add(chunk);
        if (Boolean.FALSE.equals(seen)) {
            List<String> cycle = new ArrayList<>();
            for (StateChunk c : path.subList(path.indexOf(chunk), path.size())) {
                cycle.add(c.describe());
            }
            throw new StateCompileException("Recursive requisite found: " + String.join(" -> ", cycle));
        }
        state.put(chunk, false);
        for (Edge edge : edges.getOrDefault(chunk, List.of())) {
            if (edge.kind() == RequisiteKind.PREREQ) {
                // the target runs after this chunk, but is tried in test mode first: what it waits for runs before
                for (Edge of : edges.getOrDefault(edge.target(), List.of())) {
                    if (of.kind() != RequisiteKind.PREREQUIRED) {
                        visit(of.target(), edges, state, out, path);
                    }
                }
            } else {
                visit(edge.target(), edges, state, out, path);
            }
        }
        state.put(chunk, true);
        path.remove(path.size() - 1);
        out.add(chunk);
    }
}
