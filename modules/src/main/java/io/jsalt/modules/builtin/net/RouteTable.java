package io.jsalt.modules.builtin.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel routing tables, /proc/net/route and /proc/net/ipv6_route, in the rows Salt builds from
 * {@code netstat -rn}: addr_family, destination, gateway, netmask, flags, interface.
 */
public final class RouteTable {

    private static final int RTF_UP = 0x1;
    private static final int RTF_GATEWAY = 0x2;
    private static final int RTF_HOST = 0x4;
    private static final int RTF_REINSTATE = 0x8;
    private static final int RTF_DYNAMIC = 0x10;
    private static final int RTF_MODIFIED = 0x20;
    private static final int RTF_REJECT = 0x200;

    private final Path proc;

    public RouteTable(Path proc) {
        this.proc = proc;
    }

    public List<Map<String, Object>> inet() {
        List<Map<String, Object>> routes = new ArrayList<>();
        for (String line : lines(proc.resolve("net/route"))) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 8 || fields[0].equals("Iface")) {
                continue;
            }
            routes.add(route("inet", HexAddress.text(HexAddress.decode(fields[1])),
                    HexAddress.text(HexAddress.decode(fields[2])), HexAddress.text(HexAddress.decode(fields[7])),
                    flags(Integer.parseInt(fields[3], 16)), fields[0]));
        }
        return routes;
    }

    public List<Map<String, Object>> inet6() {
        List<Map<String, Object>> routes = new ArrayList<>();
        for (String line : lines(proc.resolve("net/ipv6_route"))) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 10) {
                continue;
            }
            String destination = HexAddress.text(HexAddress.decodeNetworkOrder(fields[0])) + "/"
                    + Integer.parseInt(fields[1], 16);
            String gateway = HexAddress.text(HexAddress.decodeNetworkOrder(fields[4]));
            // netstat -A inet6 leaves the netmask column out: the prefix is part of the destination
            routes.add(route("inet6", destination, gateway, "", flags((int) Long.parseLong(fields[8], 16)), fields[9]));
        }
        return routes;
    }

    private static Map<String, Object> route(String family, String destination, String gateway, String netmask,
                                             String flags, String iface) {
        Map<String, Object> route = new LinkedHashMap<>();
        route.put("addr_family", family);
        route.put("destination", destination);
        route.put("gateway", gateway);
        route.put("netmask", netmask);
        route.put("flags", flags);
        route.put("interface", iface);
        return route;
    }

    /** netstat's flag letters, in its order. */
    static String flags(int bits) {
        StringBuilder text = new StringBuilder();
        if ((bits & RTF_UP) != 0) {
            text.append('U');
        }
        if ((bits & RTF_GATEWAY) != 0) {
            text.append('G');
        }
        if ((bits & RTF_REJECT) != 0) {
            text.append('!');
        }
        if ((bits & RTF_HOST) != 0) {
            text.append('H');
        }
        if ((bits & RTF_REINSTATE) != 0) {
            text.append('R');
        }
        if ((bits & RTF_DYNAMIC) != 0) {
            text.append('D');
        }
        if ((bits & RTF_MODIFIED) != 0) {
            text.append('M');
        }
        return text.toString();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of(); // a kernel without this family
        } catch (IOException e) {
            throw new io.jsalt.modules.api.CommandExecutionException("Unable to read " + file + ": " + e.getMessage(), e);
        }
    }
}
