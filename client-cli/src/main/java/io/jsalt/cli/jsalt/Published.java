package io.jsalt.cli.jsalt;

import java.util.List;

/**
 * The master's answer to a publish: the jid, the minions it expects, list-target ids it does not know, and the
 * minions it sent the job to without knowing their grains (each decides for itself whether it is targeted).
 */
record Published(String jid, List<String> minions, List<String> missing, List<String> undecided) {
    Published(String jid, List<String> minions, List<String> missing) {
        this(jid, minions, missing, List.of());
    }
}
