package io.jsalt.cli.call;

import io.jsalt.modules.CallResult;
import io.jsalt.modules.ModuleRegistry;
import java.util.List;
import java.util.Map;

/**
 * Runs one function in this process, the way salt-call does, and works out its retcode as Salt's caller
 * does: the function's own retcode, or 1 when it returned a map whose {@code result} or {@code success}
 * is false.
 */
final class LocalCall {
    /** Salt's EX_GENERIC. */
    static final int RETCODE_FAILED = 1;

    private LocalCall() {}

    /**
     * What the call gave: the return, its retcode as salt-call counts it, whether it succeeded, and the
     * outputter its function asks for (e.g. highstate; null when none).
     */
    record Outcome(Object ret, int retcode, String out) {
        Outcome(Object ret, int retcode) {
            this(ret, retcode, null);
        }

        boolean success() {
            return retcode == 0;
        }
    }

    static Outcome run(ModuleRegistry registry, String fun, List<Object> wireArgs) {
        CallResult r = registry.call(fun, wireArgs);
        int retcode = r.retcode();
        if (retcode == 0 && !r.success()) {
            retcode = RETCODE_FAILED;
        }
        if (retcode == 0 && r.ret() instanceof Map<?, ?> m
                && (Boolean.FALSE.equals(m.get("result")) || Boolean.FALSE.equals(m.get("success")))) {
            retcode = RETCODE_FAILED;
        }
        return new Outcome(r.ret(), retcode, registry.outputter(fun).orElse(null));
    }
}
