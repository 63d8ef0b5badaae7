package io.jsalt.modules.builtin.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * The TCP and UDP sockets of /proc/net/{tcp,tcp6,udp,udp6} in the rows Salt builds from
 * {@code netstat -tulpnea}: proto, recv-q, send-q, local-address, remote-address, state (TCP only), user,
 * inode, program ("pid/name", or "-" where the owner is another user's process).
 */
public final class SocketTable {

    private static final String[] TCP_STATES = {"", "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1",
            "FIN_WAIT2", "TIME_WAIT", "CLOSE", "CLOSE_WAIT", "LAST_ACK", "LISTEN", "CLOSING", "NEW_SYN_RECV"};

    private final Path proc;

    public SocketTable(Path proc) {
        this.proc = proc;
    }

    /** Every socket; userName turns a uid into what netstat -e prints. */
    public List<Map<String, Object>> read(LongFunction<String> userName) {
        Map<Long, String> programs = programsByInode();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String proto : List.of("tcp", "tcp6", "udp", "udp6")) {
            for (String line : lines(proc.resolve("net").resolve(proto))) {
                Map<String, Object> row = parseLine(proto, line, userName, programs);
                if (row != null) {
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    static Map<String, Object> parseLine(String proto, String line, LongFunction<String> userName,
                                         Map<Long, String> programs) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length < 10 || !fields[0].endsWith(":")) {
            return null; // the header
        }
        String[] queues = fields[4].split(":");
        long inode = Long.parseLong(fields[9]);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("proto", proto);
        row.put("recv-q", Long.toString(Long.parseLong(queues[1], 16)));
        row.put("send-q", Long.toString(Long.parseLong(queues[0], 16)));
        row.put("local-address", endpoint(fields[1]));
        row.put("remote-address", endpoint(fields[2]));
        if (proto.startsWith("tcp")) {
            int state = Integer.parseInt(fields[3], 16);
            row.put("state", state < TCP_STATES.length ? TCP_STATES[state] : Integer.toString(state));
        }
        row.put("user", userName.apply(Long.parseLong(fields[7])));
        row.put("inode", Long.toString(inode));
        row.put("program", programs.getOrDefault(inode, "-"));
        return row;
    }

    /** "0100007F:0016" -> "127.0.0.1:22"; port 0 is "*", as netstat -n prints it. */
    static String endpoint(String field) {
        int colon = field.indexOf(':');
        int port = Integer.parseInt(field.substring(colon + 1), 16);
        return HexAddress.text(HexAddress.decode(field.substring(0, colon))) + ":" + (port == 0 ? "*" : port);
    }

    /** Socket inode -> "pid/name" from the fd links we may read (all of them as root, our own otherwise). */
    private Map<Long, String> programsByInode() {
        Map<Long, String> programs = new HashMap<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, "[0-9]*")) {
            for (Path process : processes) {
                collectSockets(process, programs);
            }
        } catch (IOException e) {
            // without a readable /proc the program column stays "-"
        }
        return programs;
    }

    private static void collectSockets(Path process, Map<Long, String> programs) {
        String name = null;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
            for (Path fd : fds) {
                String target = Files.readSymbolicLink(fd).toString();
                if (target.startsWith("socket:[")) {
                    if (name == null) {
                        name = Files.readString(process.resolve("comm"), StandardCharsets.UTF_8).strip();
                    }
                    long inode = Long.parseLong(target.substring(8, target.length() - 1));
                    programs.putIfAbsent(inode, process.getFileName() + "/" + name);
                }
            }
        } catch (IOException | RuntimeException e) {
            // another user's process, or one that exited meanwhile
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of(); // no IPv6 in this kernel
        } catch (IOException e) {
            throw new io.jsalt.modules.api.CommandExecutionException("Unable to read " + file + ": " + e.getMessage(), e);
        }
    }
}
