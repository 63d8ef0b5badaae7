package io.jsalt.master.files;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code _master_opts}: the part of the master's options a minion compiles its highstate with (Salt's
 * {@code AESFuncs._master_opts}): the saltenvs as {@code file_roots} keys (never the master's folders), how top
 * files merge, and the nodegroups its top files may name. {@code env_only} answers the first part alone, as Salt.
 */
public final class MasterOptsCommand {
    private final FileServer server;
    private final Supplier<Map<String, Object>> nodegroups;

    public MasterOptsCommand(FileServer server, Supplier<Map<String, Object>> nodegroups) {
        this.server = server;
        this.nodegroups = nodegroups;
    }

    /**
     * {@code _master_tops}: jsalt has no master_tops/ext_nodes, so {@code {}}, as a Salt master without them answers
     * (a salt-minion's highstate iterates the answer: {@code False} would break it).
     */
    public Object masterTops(Map<String, Object> load, String nonce) {
        return new LinkedHashMap<>();
    }

    public Object masterOpts(Map<String, Object> load, String nonce) {
        Map<String, Object> opts = new LinkedHashMap<>();
        Map<String, Object> fileRoots = new LinkedHashMap<>();
        server.envs().forEach(env -> fileRoots.put(env, new ArrayList<>()));
        opts.put("file_roots", fileRoots);
        // jsalt's only strategy, Salt's default
        opts.put("top_file_merging_strategy", "merge");
        opts.put("env_order", List.of());
        opts.put("default_top", "base");
        if (Boolean.TRUE.equals(load.get("env_only"))) {
            return opts;
        }
        opts.put("renderer", "jinja|yaml");
        opts.put("failhard", false);
        opts.put("state_top", "salt://top.sls");
        opts.put("state_top_saltenv", null);
        opts.put("nodegroups", new LinkedHashMap<>(nodegroups.get()));
        opts.put("state_auto_order", true);
        opts.put("state_events", false);
        opts.put("state_aggregate", false);
        opts.put("jinja_env", Map.of());
        opts.put("jinja_sls_env", Map.of());
        opts.put("jinja_lstrip_blocks", false);
        opts.put("jinja_trim_blocks", false);
        return opts;
    }
}
