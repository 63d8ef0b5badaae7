package io.jsalt.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The children of a process, as the kernel lists them in {@code /proc/<pid>/task/<tid>/children} (one small read
 * per thread of the parent, no scan of all of /proc), and their command lines: how the supervision benchmark sees
 * a program's new process appear, the same way for every supervisor it measures.
 */
public final class ProcChildren {
    private ProcChildren() {
    }

    /** The pids of {@code pid}'s children (whichever of its threads forked them); empty when it is gone. */
    public static Set<Long> of(long pid) {
        Set<Long> children = new HashSet<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    for (String child : Files.readString(task.resolve("children")).trim().split(" ")) {
                        if (!child.isEmpty()) {
                            children.add(Long.parseLong(child));
                        }
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return Set.of();
        }
        return children;
    }

    /** The arguments joined by spaces; "" for a process gone (or a zombie, which has none). */
    public static String commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            int end = raw.length;
            while (end > 0 && raw[end - 1] == 0) {
                end--;
            }
            return new String(raw, 0, end, StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }
}
