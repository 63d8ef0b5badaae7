package io.jsalt.modules.builtin.pkg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The outputs below are copied from apt and dpkg on Debian 12. */
class AptOutputTest {

    @Test
    void installedKeepsOnlyInstalledPackagesAndQualifiesForeignArchitectures() {
        String query = "install ok installed adduser 3.134 all\n"
                + "install ok installed bash 5.2.15-2+b8 amd64\n"
                + "hold ok installed libc6 2.36-9 i386\n"
                + "deinstall ok config-files oldpkg 1.0 amd64\n";

        assertThat(AptOutput.installed(query, "amd64"))
                .containsExactly(Map.entry("adduser", "3.134"), Map.entry("bash", "5.2.15-2+b8"),
                        Map.entry("libc6:i386", "2.36-9"));
    }

    @Test
    void policiesGiveInstalledAndCandidateVersions() {
        String policy = "dpkg:\n  Installed: 1.21.22\n  Candidate: 1.21.23\n  Version table:\n"
                + "     1.21.23 500\n        500 http://deb.debian.org/debian bookworm/main amd64 Packages\n"
                + " *** 1.21.22 100\n        100 /var/lib/dpkg/status\n"
                + "nginx:\n  Installed: (none)\n  Candidate: 1.22.1-9\n";

        assertThat(AptOutput.policies(policy)).containsExactly(
                Map.entry("dpkg", new AptOutput.Policy("1.21.22", "1.21.23")),
                Map.entry("nginx", new AptOutput.Policy(null, "1.22.1-9")));
    }

    @Test
    void updateResultsFollowSaltsTrueNoneFalse() {
        String update = "Hit:1 http://deb.debian.org/debian bookworm InRelease\n"
                + "Get:2 http://deb.debian.org/debian bookworm-updates InRelease [55.4 kB]\n"
                + "Err:3 http://example.invalid/debian stable InRelease\n"
                + "Reading package lists...\n";

        Map<String, Object> expected = new HashMap<>();
        expected.put("http://deb.debian.org/debian bookworm InRelease", null);
        expected.put("http://deb.debian.org/debian bookworm-updates InRelease", true);
        expected.put("http://example.invalid/debian stable InRelease", false);
        assertThat(AptOutput.updateResults(update)).isEqualTo(expected);
    }

    @Test
    void upgradesComeFromTheInstLinesOfADryRun() {
        String simulation = "Reading package lists...\n"
                + "Inst base-files [12.4+deb12u11] (12.4+deb12u15 Debian:12.15/oldstable [amd64])\n"
                + "Inst newdep (1.0-1 Debian:12.15/oldstable [amd64])\n"
                + "Conf base-files (12.4+deb12u15 Debian:12.15/oldstable [amd64])\n";

        assertThat(AptOutput.upgrades(simulation))
                .containsExactly(Map.entry("base-files", "12.4+deb12u15"), Map.entry("newdep", "1.0-1"));
    }
}
