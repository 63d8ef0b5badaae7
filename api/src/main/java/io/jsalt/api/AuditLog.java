package io.jsalt.api;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per API action on the logger {@code jsalt.audit}, which jsalt-api writes to {@code api_audit_logfile}: who, from
 * which backend, what, on which target, the jid, and whether it was allowed. Never a password or a token.
 */
public final class AuditLog {
    private static final Logger audit = LoggerFactory.getLogger("jsalt.audit");

    private AuditLog() {}

    public static void action(String user, String eauth, String client, String fun, Object tgt, String jid, String outcome) {
        audit.info("user={} eauth={} client={} fun={} tgt={} jid={} outcome={}", oneLine(user), oneLine(eauth), oneLine(client),
                oneLine(fun), oneLine(tgt), jid, outcome);
    }

    public static void login(String user, String eauth, boolean ok, String from) {
        audit.info("user={} eauth={} action=login from={} outcome={}", oneLine(user), oneLine(eauth), from, ok ? "ok" : "refused");
    }

    public static void logout(String user, String eauth) {
        audit.info("user={} eauth={} action=logout outcome=ok", oneLine(user), oneLine(eauth));
    }

    /** Names and targets come from the request: a newline in one must not forge a second audit line. */
    static String oneLine(Object value) {
        if (value == null) {
            return null;
        }
        String s = String.valueOf(value);
        return s.length() > 200 ? escape(s.substring(0, 200)) + "..." : escape(s);
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }
}
