package io.jsalt.cli.jsalt;

import java.util.List;

/** What to publish: a target ({@code tgt} is a string, or a list of ids for tgt_type list), a function and its wire args. */
record JobSpec(Object tgt, String tgtType, String fun, List<Object> arg) {
    /** The same job for exactly these minions, as Salt's batch mode and find_job publish it. */
    JobSpec toList(List<String> ids) {
        return new JobSpec(List.copyOf(ids), "list", fun, arg);
    }
}
