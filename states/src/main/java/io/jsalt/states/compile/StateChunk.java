package io.jsalt.states.compile;

import java.util.List;
import java.util.Map;

/**
 * One state call (Salt's low chunk): {@code state.fun} on {@code name}, declared under {@code id} in {@code sls}.
 *
 * @param order        Salt's definition order: included files first, then the file's own ids in order
 * @param args         the function's arguments, without name and requisites, in the order written
 * @param requisites   what this chunk waits for, as written (its own and the {@code _in} of others)
 * @param saltenv      the saltenv its SLS came from (Salt's {@code __env__}); empty for the run's own
 */
public record StateChunk(String id, String sls, String state, String fun, String name, int order,
        Map<String, Object> args, List<Requisite> requisites, String saltenv) {

    /** A chunk of the run's own saltenv. */
    public StateChunk(String id, String sls, String state, String fun, String name, int order,
            Map<String, Object> args, List<Requisite> requisites) {
        this(id, sls, state, fun, name, order, args, requisites, "");
    }

    /** Salt's return key: {@code <state>_|-<id>_|-<name>_|-<fun>}. */
    public String tag() {
        return state + "_|-" + id + "_|-" + name + "_|-" + fun;
    }

    /** How Salt names a chunk in requisite messages. */
    public String describe() {
        return state + ": " + id;
    }
}
