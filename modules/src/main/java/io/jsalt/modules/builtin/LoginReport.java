package io.jsalt.modules.builtin;

import io.jsalt.modules.builtin.system.LoginSession;
import io.jsalt.modules.builtin.system.ProcessInfo;
import io.jsalt.modules.builtin.system.ProcessTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of Salt's {@code status.w}, which parses {@code w -h}: user, tty, login (HH:MM), idle, jcpu,
 * pcpu and what, with w's time formats.
 */
final class LoginReport {

    private static final DateTimeFormatter LOGIN = DateTimeFormatter.ofPattern("HH:mm");

    private LoginReport() {
    }

    static Map<String, Object> describe(LoginSession session, ProcessTable processes) {
        ProcessInfo leader = processes.find(session.pid()).orElse(null);
        long sessionTicks = 0;
        if (leader != null) {
            for (ProcessInfo process : processes.all()) {
                if (belongsTo(process, leader, processes)) {
                    sessionTicks += process.userTicks() + process.systemTicks();
                }
            }
        }
        Map<String, Object> rec = new LinkedHashMap<>();
        rec.put("idle", idle(session.tty()));
        rec.put("jcpu", cpuTime(sessionTicks));
        rec.put("login", LOGIN.format(LocalDateTime.ofInstant(Instant.ofEpochSecond(session.loginEpochSeconds()),
                ZoneId.systemDefault())));
        rec.put("pcpu", leader == null ? "0.00s" : cpuTime(leader.userTicks() + leader.systemTicks()));
        rec.put("tty", session.tty());
        rec.put("user", session.user());
        rec.put("what", leader == null ? "-" : leader.commandText());
        return rec;
    }

    private static boolean belongsTo(ProcessInfo process, ProcessInfo leader, ProcessTable processes) {
        ProcessInfo current = process;
        for (int depth = 0; current != null && depth < 64; depth++) {
            if (current.pid() == leader.pid()) {
                return true;
            }
            if (current.ppid() <= 1) {
                return false;
            }
            current = processes.find(current.ppid()).orElse(null);
        }
        return false;
    }

    /** w's idle column: time since the terminal was last read, as 5.00s, 3:12 or 2days. */
    private static String idle(String tty) {
        try {
            FileTime accessed = (FileTime) Files.getAttribute(Path.of("/dev", tty), "lastAccessTime");
            long seconds = Math.max(0, (System.currentTimeMillis() - accessed.toMillis()) / 1000);
            if (seconds < 60) {
                return seconds + ".00s";
            }
            if (seconds < 3600) {
                return String.format("%d:%02d", seconds / 60, seconds % 60);
            }
            if (seconds < 86400) {
                return String.format("%d:%02dm", seconds / 3600, seconds / 60 % 60);
            }
            return seconds / 86400 + "days";
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    private static String cpuTime(long ticks) {
        double seconds = (double) ticks / ProcessTable.CLOCK_TICKS;
        if (seconds < 60) {
            return String.format("%.2fs", seconds);
        }
        long whole = (long) seconds;
        return String.format("%d:%02d", whole / 60, whole % 60);
    }
}
