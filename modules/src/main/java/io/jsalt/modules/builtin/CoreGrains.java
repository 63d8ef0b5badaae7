package io.jsalt.modules.builtin;

import io.jsalt.modules.JsaltVersion;
import io.jsalt.modules.builtin.grains.HardwareGrains;
import io.jsalt.modules.builtin.grains.NetworkGrains;
import io.jsalt.modules.builtin.grains.OsReleaseGrains;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core grains of a Linux minion, with Salt's names and types: id, kernel, os*, host/fqdn, addresses,
 * CPU and memory, and jsalt's own jvm_version and jsaltversion.
 *
 * <p>Each group of grains is read on its own and a failure only drops that group: a minion must start
 * on a machine without {@code /etc/os-release} or with a broken resolver. The minion merges the static
 * {@code grains} of its config on top of these (a configured grain wins); that is not done here.
 */
public final class CoreGrains {

    private static final Logger LOG = LoggerFactory.getLogger(CoreGrains.class);

    private CoreGrains() {
    }

    /** A fresh, mutable, sorted map of core grains; never throws. */
    public static Map<String, Object> collect(String minionId) {
        return collect(minionId, Path.of("/"));
    }

    /** The same, reading system files under {@code root} (a fake root in tests). */
    static Map<String, Object> collect(String minionId, Path root) {
        Map<String, Object> grains = new TreeMap<>();
        grains.put("id", minionId);
        String cpuarch = cpuarch();
        group(grains, "kernel", () -> kernel(root, cpuarch));
        group(grains, "os", () -> read(root, "etc/os-release").or(() -> read(root, "usr/lib/os-release"))
                .map(text -> OsReleaseGrains.grains(OsReleaseGrains.parse(text), cpuarch)).orElse(Map.of()));
        group(grains, "cpu", () -> read(root, "proc/cpuinfo").map(HardwareGrains::cpu).orElse(Map.of()));
        if (!grains.containsKey("num_cpus")) {
            grains.put("num_cpus", Runtime.getRuntime().availableProcessors());
        }
        group(grains, "memory", () -> read(root, "proc/meminfo").map(HardwareGrains::memory).orElse(Map.of()));
        group(grains, "hostname", () -> hostnames(root));
        group(grains, "network", () -> {
            try {
                return NetworkGrains.collect();
            } catch (IOException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        });
        group(grains, "process", () -> process(root));
        group(grains, "hardware", () -> hardware(root));
        grains.put("jvm_version", System.getProperty("java.version", ""));
        grains.put("jsaltversion", JsaltVersion.current());
        return grains;
    }

    private interface GrainGroup {
        Map<String, Object> read();
    }

    private static void group(Map<String, Object> grains, String name, GrainGroup group) {
        try {
            grains.putAll(group.read());
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("could not read the {} grains: {}", name, e.toString());
        }
    }

    private static Map<String, Object> kernel(Path root, String cpuarch) {
        Map<String, Object> grains = new TreeMap<>();
        grains.put("kernel", capitalize(System.getProperty("os.name", "")));
        grains.put("kernelrelease", System.getProperty("os.version", ""));
        read(root, "proc/sys/kernel/version").map(String::strip).ifPresent(v -> grains.put("kernelversion", v));
        grains.put("cpuarch", cpuarch);
        return grains;
    }

    /** uname -m, from the JVM's name for the architecture. */
    private static String cpuarch() {
        String arch = System.getProperty("os.arch", "");
        return switch (arch) {
            case "amd64" -> "x86_64";
            case "x86" -> "i686";
            default -> arch;
        };
    }

    private static Map<String, Object> hostnames(Path root) {
        Map<String, Object> grains = new TreeMap<>();
        String hostname = read(root, "proc/sys/kernel/hostname").map(String::strip).filter(h -> !h.isEmpty())
                .orElseGet(CoreGrains::hostnameFromResolver);
        String fqdn = fqdn(hostname);
        int dot = fqdn.indexOf('.');
        grains.put("localhost", hostname);
        grains.put("nodename", hostname);
        grains.put("fqdn", fqdn);
        grains.put("host", dot < 0 ? fqdn : fqdn.substring(0, dot));
        grains.put("domain", dot < 0 ? "" : fqdn.substring(dot + 1));
        return grains;
    }

    private static String hostnameFromResolver() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    /**
     * Salt asks getaddrinfo for the canonical name; Java can only reverse-resolve, which maps
     * 127.0.1.1 to "localhost", so a reverse name is kept only when it extends the host name.
     */
    private static String fqdn(String hostname) {
        if (hostname.contains(".")) {
            return hostname;
        }
        try {
            String canonical = InetAddress.getByName(hostname).getCanonicalHostName();
            if (canonical.startsWith(hostname + ".")) {
                return canonical;
            }
        } catch (IOException | SecurityException e) {
            // an unresolvable host name is its own fqdn
        }
        return hostname;
    }

    private static Map<String, Object> process(Path root) {
        Map<String, Object> grains = new TreeMap<>();
        grains.put("pid", ProcessHandle.current().pid());
        grains.put("username", System.getProperty("user.name", ""));
        grains.put("cwd", System.getProperty("user.dir", ""));
        grains.put("path", Optional.ofNullable(System.getenv("PATH")).orElse(""));
        grains.put("shell", Optional.ofNullable(System.getenv("SHELL")).orElse("/bin/sh"));
        grains.put("ps", "ps -efHww");
        read(root, "proc/self/status").ifPresent(status -> {
            for (String line : status.split("\n")) {
                // "Uid:\treal\teffective\tsaved\tfs": Salt reports the effective ids
                if (line.startsWith("Uid:") || line.startsWith("Gid:")) {
                    String[] ids = line.substring(4).strip().split("\\s+");
                    if (ids.length > 1 && ids[1].matches("\\d{1,9}")) {
                        grains.put(line.startsWith("Uid:") ? "uid" : "gid", Integer.parseInt(ids[1]));
                    }
                }
            }
        });
        read(root, "etc/machine-id").map(String::strip).filter(id -> !id.isEmpty())
                .ifPresent(id -> grains.put("machine_id", id));
        read(root, "proc/1/comm").map(String::strip).filter(init -> !init.isEmpty())
                .ifPresent(init -> grains.put("init", init));
        return grains;
    }

    private static Map<String, Object> hardware(Path root) {
        Map<String, Object> grains = new TreeMap<>();
        read(root, "sys/class/dmi/id/sys_vendor").map(String::strip).ifPresent(v -> grains.put("manufacturer", v));
        read(root, "sys/class/dmi/id/product_name").map(String::strip).ifPresent(v -> grains.put("productname", v));
        read(root, "sys/class/dmi/id/bios_version").map(String::strip).ifPresent(v -> grains.put("biosversion", v));
        return grains;
    }

    /** A small system file as text, or empty when it is missing or unreadable. */
    private static Optional<String> read(Path root, String relative) {
        try {
            return Optional.of(new String(Files.readAllBytes(root.resolve(relative)), StandardCharsets.UTF_8));
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    private static String capitalize(String name) {
        return name.isEmpty() ? name : name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
    }
}
