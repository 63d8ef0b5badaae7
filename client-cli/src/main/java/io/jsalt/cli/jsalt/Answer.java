package io.jsalt.cli.jsalt;

import java.util.Map;

/** One minion's answer to a job: its return and retcode, from an event or from the master's job cache. */
record Answer(Object ret, int retcode) {
    /** From the data of a {@code salt/job/<jid>/ret/<id>} event or a job cache entry ({@code return}, {@code retcode}). */
    static Answer of(Map<?, ?> data) {
        Object retcode = data.get("retcode");
        return new Answer(data.get("return"), retcode instanceof Number n ? n.intValue() : 0);
    }

    boolean failed() {
        return retcode != 0;
    }
}
