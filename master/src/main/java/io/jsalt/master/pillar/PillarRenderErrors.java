package io.jsalt.master.pillar;

import io.jsalt.states.StatesException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a pillar file that does not render leaves behind. The minion's pillar gets Salt's {@code _errors} entry:
 * with {@code pillar_safe_render_error} (the default) only that the SLS failed, else the whole cause. The master's
 * log gets one WARN naming the minion, the file and the line, never the cause's text: a renderer's message can
 * quote the file, and pillar files hold secrets.
 */
final class PillarRenderErrors {
    private static final Logger log = LoggerFactory.getLogger(PillarRenderErrors.class);
    private static final Pattern LINE = Pattern.compile("line (\\d+)");

    private final String minionId;
    private final boolean safe;
    private final List<String> errors;

    PillarRenderErrors(String minionId, boolean safe, List<String> errors) {
        this.minionId = minionId;
        this.safe = safe;
        this.errors = errors;
    }

    void slsFailed(String sls, String saltenv, StatesException e) {
        log.warn("pillar of {}: SLS '{}' in saltenv '{}' did not render ({})", minionId, sls, saltenv, where(e));
        errors.add(safe ? "Rendering SLS '" + sls + "' failed. Please see master log for details."
                : "Rendering SLS '" + sls + "' failed, render error:\n" + e.getMessage());
    }

    void topFailed(String saltenv, StatesException e) {
        log.warn("pillar of {}: the top file of saltenv '{}' did not render ({})", minionId, saltenv, where(e));
        errors.add(safe ? "Rendering Primary Top file failed. Please see master log for details."
                : "Rendering Primary Top file failed, render error:\n" + e.getMessage());
    }

    /** The kind of failure and its line, from the message, without the message's own words. */
    static String where(StatesException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        String kind = message.startsWith("Jinja") ? "a Jinja error" : message.startsWith("Rendering yaml") ? "a YAML error"
                : message.startsWith("Rendering json") ? "a JSON error" : message.startsWith("Renderer") ? "an unknown renderer"
                : message.startsWith("SLS") ? "not a dictionary" : "an error";
        Matcher m = LINE.matcher(message);
        return m.find() ? kind + " at line " + m.group(1) : kind;
    }
}
