package io.jsalt.minion.supervisor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When to look at each output log's size, for its rotation ({@link OutputLog}): every second while it grows, and
 * less and less often (2, 4 ... at most {@value #MAX_SECONDS} s apart) while it has not grown and is under half its
 * {@code maxbytes}. Most supervised programs write little most of the time: 200 idle programs would otherwise cost
 * 400 file sizes a second, for ever; a log that grows is back to a look a second at once. The price: a program
 * silent for a while that then writes more than half its {@code maxbytes} at once is rotated up to
 * {@value #MAX_SECONDS} s late. Not thread-safe: the supervisor's thread only.
 */
final class RotationWatch {
    private static final Logger log = LoggerFactory.getLogger(RotationWatch.class);
    static final int MAX_SECONDS = 30;

    private static final class Look {
        long size = -1;
        int every = 1;
        int skip;
    }

    private final Map<Path, Look> looks = new HashMap<>();

    /** Called every second for each log: rotates it when it is due for a look and past its maxbytes. */
    void tick(ProgramConfig.LogSettings settings) {
        Path file = settings.file();
        if (file == null || settings.maxbytes() <= 0) {
            return;
        }
        Look look = looks.computeIfAbsent(file, f -> new Look());
        if (look.skip > 0) {
            look.skip--;
            return;
        }
        long size = file.toFile().length(); // one stat; 0 for a file not there
        if (size > settings.maxbytes()) {
            try {
                if (OutputLog.rotateIfOver(settings)) {
                    log.debug("rotated {}", file);
                }
            } catch (IOException e) {
                log.warn("cannot rotate {}: {}", file, e.toString());
            }
            look.every = 1;
            look.size = -1;
        } else if (size == look.size && size < settings.maxbytes() / 2) {
            look.every = Math.min(look.every * 2, MAX_SECONDS);
        } else {
            look.every = 1;
            look.size = size;
        }
        look.skip = look.every - 1;
    }

    /** Forgets the logs no program writes any more. */
    void retain(Set<Path> files) {
        looks.keySet().retainAll(files);
    }
}
