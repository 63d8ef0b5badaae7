package io.jsalt.cli.jsalt;

import java.util.Map;

/**
 * One minion's answer to a job: its return and retcode, from an event or from the master's job cache,
 * whether the master verified its sender (false for a minion that does not sign, docs/interop.md), and the
 * outputter the minion named for it ({@code out}, e.g. {@code highstate}; null when none).
 */
record Answer(Object ret, int retcode, boolean verified, String out) {
    Answer(Object ret, int retcode) {
        this(ret, retcode, true, null);
    }

    /**
     * From the data of a {@code salt/job/<jid>/ret/<id>} event or a job cache entry ({@code return},
     * {@code retcode}, {@code verified}; a master that does not say is taken as verified).
     */
    static Answer of(Map<?, ?> data) {
        Object retcode = data.get("retcode");
        return new Answer(data.get("return"), retcode instanceof Number n ? n.intValue() : 0,
                !Boolean.FALSE.equals(data.get("verified")), data.get("out") instanceof String out ? out : null);
    }

    boolean failed() {
        return retcode != 0;
    }
}
