package io.jsalt.modules.builtin.pkg;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.grains.OsReleaseGrains;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whether this host's packages are apt/dpkg's, from {@code /etc/os-release}: jsalt's {@code pkg} is
 * Salt's aptpkg only, so on a RedHat, Suse or Arch host it refuses with the family it found rather
 * than run tools that are not there.
 */
public final class PackageFamily {

    /** Where the os-release file lives. */
    public static final Path DEFAULT_OS_RELEASE = Path.of("/etc/os-release");

    private static final Set<String> DEBIAN_IDS = Set.of("debian", "ubuntu");

    private final Path osRelease;

    public PackageFamily(Path osRelease) {
        this.osRelease = osRelease;
    }

    /** Fails with the host's family when it is not in the Debian family. */
    public void requireDebian(String function) {
        Map<String, String> fields;
        try {
            fields = OsReleaseGrains.parse(Files.readString(osRelease, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            throw new CommandExecutionException(function + " needs the Debian family (apt/dpkg), and this host has no "
                    + osRelease + " to say what it is");
        } catch (IOException e) {
            throw new CommandExecutionException("Unable to read " + osRelease + ": " + e.getMessage(), e);
        }
        if (isDebian(fields)) {
            return;
        }
        Object family = OsReleaseGrains.grains(fields, "").get("os_family");
        String name = fields.getOrDefault("PRETTY_NAME", fields.getOrDefault("NAME", "an unknown OS"));
        throw new CommandExecutionException(function + " supports only the Debian family (apt/dpkg); this host is "
                + name + ", os_family " + (family == null ? "unknown" : family));
    }

    private static boolean isDebian(Map<String, String> fields) {
        if (DEBIAN_IDS.contains(fields.getOrDefault("ID", "").toLowerCase(Locale.ROOT))) {
            return true;
        }
        for (String like : fields.getOrDefault("ID_LIKE", "").toLowerCase(Locale.ROOT).split("\\s+")) {
            if (DEBIAN_IDS.contains(like)) {
                return true;
            }
        }
        return false;
    }
}
