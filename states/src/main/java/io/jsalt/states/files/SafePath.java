package io.jsalt.states.files;

import io.jsalt.states.StatesException;

/** The one rule every file-server path obeys: relative, '/'-separated, no '..', no empty parts. */
final class SafePath {
    private SafePath() {
    }

    static String check(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        if (p.isEmpty() || p.contains("\\") || p.contains("\0")) {
            throw new StatesException("unsafe file server path: '" + path + "'");
        }
        for (String part : p.split("/", -1)) {
            if (part.isEmpty() || part.equals("..") || part.equals(".")) {
                throw new StatesException("unsafe file server path: '" + path + "'");
            }
        }
        return p;
    }
}
