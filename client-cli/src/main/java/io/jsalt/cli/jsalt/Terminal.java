package io.jsalt.cli.jsalt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether stdout and stderr are terminals (Python's isatty, which Salt asks before colouring). The JDK only
 * tells this for stdin and stdout together (System.console), so on Linux the file descriptor's target is read.
 */
record Terminal(boolean stdout, boolean stderr) {
    static final Terminal NONE = new Terminal(false, false);

    static Terminal detect() {
        boolean console = System.console() != null;
        return new Terminal(isTty(1).orElse(console), isTty(2).orElse(console));
    }

    private static java.util.Optional<Boolean> isTty(int fd) {
        Path link = Path.of("/proc/self/fd/" + fd);
        if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return java.util.Optional.empty();
        }
        try {
            String target = Files.readSymbolicLink(link).toString();
            return java.util.Optional.of(target.startsWith("/dev/pts/") || target.startsWith("/dev/tty"));
        } catch (IOException | UnsupportedOperationException e) {
            return java.util.Optional.empty();
        }
    }
}
