package io.jsalt.modules.builtin.grains;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class OsReleaseGrainsTest {

    private static Map<String, Object> grains(String osRelease) {
        return OsReleaseGrains.grains(OsReleaseGrains.parse(osRelease), "x86_64");
    }

    @Test
    void debianBookwormReadsAsSaltShowsIt() {
        // the values match the grains a salt-minion 3006.8 sent for Debian 12 (run1 frame 004)
        Map<String, Object> grains = grains("""
                PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
                NAME="Debian GNU/Linux"
                VERSION_ID="12"
                VERSION="12 (bookworm)"
                VERSION_CODENAME=bookworm
                ID=debian
                """);

        assertThat(grains).containsEntry("os", "Debian").containsEntry("os_family", "Debian")
                .containsEntry("osfullname", "Debian GNU/Linux").containsEntry("osrelease", "12")
                .containsEntry("osmajorrelease", 12).containsEntry("oscodename", "bookworm")
                .containsEntry("osfinger", "Debian-12").containsEntry("osarch", "amd64")
                .containsEntry("lsb_distrib_description", "Debian GNU/Linux 12 (bookworm)");
    }

    @Test
    void ubuntuKeepsTheFullReleaseInItsFinger() {
        Map<String, Object> grains = grains("NAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nID=ubuntu\nID_LIKE=debian\n"
                + "VERSION_CODENAME=jammy\n");

        assertThat(grains).containsEntry("os", "Ubuntu").containsEntry("os_family", "Debian")
                .containsEntry("osmajorrelease", 22).containsEntry("osfinger", "Ubuntu-22.04");
    }

    @Test
    void redHatFamilyNamesMapLikeSalt() {
        assertThat(grains("NAME=\"Red Hat Enterprise Linux\"\nVERSION_ID=\"9.2\"\nID=\"rhel\"\n"))
                .containsEntry("os", "RedHat").containsEntry("os_family", "RedHat").containsEntry("osarch", "x86_64");
        assertThat(grains("NAME=\"AlmaLinux\"\nVERSION_ID=\"9.3\"\n")).containsEntry("os", "AlmaLinux")
                .containsEntry("os_family", "RedHat");
        assertThat(grains("NAME=\"CentOS Stream\"\nVERSION_ID=\"9\"\n")).containsEntry("os", "CentOS Stream")
                .containsEntry("os_family", "RedHat");
        assertThat(grains("NAME=\"Fedora Linux\"\nVERSION_ID=39\n")).containsEntry("os", "Fedora");
        assertThat(grains("NAME=\"Linux Mint\"\nVERSION_ID=\"21.2\"\n")).containsEntry("os", "Mint")
                .containsEntry("os_family", "Debian");
    }

    @Test
    void unknownDistributionsFallBackOnIdLike() {
        assertThat(grains("NAME=\"Zorin OS\"\nID=zorin\nID_LIKE=\"ubuntu debian\"\nVERSION_ID=\"17\"\n"))
                .containsEntry("os", "Zorin OS").containsEntry("os_family", "Debian");
        assertThat(grains("NAME=\"Alpine Linux\"\nID=alpine\nVERSION_ID=3.19.1\n"))
                .containsEntry("os", "Alpine").containsEntry("os_family", "Alpine");
    }

    @Test
    void parseUnquotesAndSkipsComments() {
        assertThat(OsReleaseGrains.parse("# comment\nA='single'\nB=\"with \\\"escape\\\"\"\nC=plain\n\nbad line\n"))
                .containsExactly(Map.entry("A", "single"), Map.entry("B", "with \"escape\""), Map.entry("C", "plain"));
    }

    @Test
    void noNameMeansNoOsGrains() {
        assertThat(grains("VERSION_ID=1\n")).isEmpty();
    }
}
