package io.jsalt.modules.builtin;

import io.jsalt.modules.api.CommandExecutionException;

/** The df flags Salt's disk functions accept in {@code args}; anything else is refused, never passed on. */
final class DfFlags {

    private static final String ALLOWED = "aBhHiklPtTxv";

    private DfFlags() {
    }

    static String clean(String args, String caller) {
        if (args == null) {
            return "";
        }
        StringBuilder flags = new StringBuilder();
        for (char flag : args.toCharArray()) {
            if (ALLOWED.indexOf(flag) < 0) {
                // Salt's message, word for word
                throw new CommandExecutionException("Invalid flag passed to " + caller);
            }
            flags.append(flag);
        }
        return flags.toString();
    }
}
