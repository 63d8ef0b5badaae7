package io.jsalt.e2e.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Real SaltStack 3006.8, run from source by {@code ../shared/salt/salt} (its README): found through the
 * {@code salt.real} property the build sets, asked once for its environment (which installs its Debian
 * packages on first use), then each tool is started straight on Python with that environment.
 */
final class RealSalt {
    private static Map<String, String> env;

    private RealSalt() {
    }

    static Path launcher() {
        String configured = System.getProperty("salt.real");
        Path p = configured != null ? Path.of(configured) : Path.of(System.getProperty("user.dir"), "..", "..", "shared", "salt", "salt");
        if (!Files.isExecutable(p)) {
            throw new AssertionError("real Salt is not at " + p + " (set -Dsalt.real to ../shared/salt/salt)");
        }
        return p.toAbsolutePath().normalize();
    }

    /** PYTHON, PYTHONPATH, PYTHONWARNINGS and SALT_SCRIPTS, as {@code salt --print-env} prints them. */
    static synchronized Map<String, String> env() throws IOException, InterruptedException {
        if (env == null) {
            Process p = new ProcessBuilder(launcher().toString(), "--print-env").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new AssertionError("salt --print-env failed:\n" + out);
            }
            Map<String, String> read = new LinkedHashMap<>();
            for (String line : out.split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0 && line.substring(0, eq).matches("[A-Z_]+")) {
                    read.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            env = read;
        }
        return env;
    }

    /** A process builder for a Salt tool ({@code salt-master}, {@code salt}, ...) with Salt's environment. */
    static ProcessBuilder tool(String tool, List<String> args) throws IOException, InterruptedException {
        Map<String, String> e = env();
        List<String> cmd = new ArrayList<>(List.of(e.get("PYTHON"), Path.of(e.get("SALT_SCRIPTS"), tool).toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("PYTHONPATH", e.get("PYTHONPATH"));
        pb.environment().put("PYTHONWARNINGS", e.getOrDefault("PYTHONWARNINGS", "ignore"));
        return pb;
    }
}
