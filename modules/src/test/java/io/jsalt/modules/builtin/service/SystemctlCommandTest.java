package io.jsalt.modules.builtin.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SystemctlCommandTest {

    @Test
    void aBareNameIsAServiceAndOtherUnitTypesKeepTheirSuffix() {
        assertThat(SystemctlCommand.canonicalUnitName("nginx")).isEqualTo("nginx.service");
        assertThat(SystemctlCommand.canonicalUnitName("logrotate.timer")).isEqualTo("logrotate.timer");
        assertThat(SystemctlCommand.canonicalUnitName("getty@tty1")).isEqualTo("getty@tty1.service");
        assertThat(SystemctlCommand.canonicalUnitName("php8.2-fpm")).isEqualTo("php8.2-fpm.service");
    }

    @Test
    void actionsAreBuiltLikeSalts() {
        assertThat(SystemctlCommand.action("start", "nginx", false)).containsExactly("systemctl", "start", "nginx.service");
        assertThat(SystemctlCommand.action("restart", "nginx", true))
                .containsExactly("systemctl", "--no-block", "restart", "nginx.service");
        assertThat(SystemctlCommand.unmask("nginx", true)).containsExactly("systemctl", "unmask", "--runtime", "nginx.service");
        assertThat(SystemctlCommand.isActive("ssh")).containsExactly("systemctl", "is-active", "ssh.service");
        assertThat(SystemctlCommand.isEnabled("cron.timer")).containsExactly("systemctl", "is-enabled", "cron.timer");
        assertThat(SystemctlCommand.listUnitFiles())
                .containsExactly("systemctl", "--full", "--no-legend", "--no-pager", "list-unit-files");
    }

    @Test
    void namesThatCouldPassForOptionsOrShellTextAreRefused() {
        for (String bad : List.of("--root=/tmp", "-H", "a b", "x;reboot", "")) {
            assertThatThrownBy(() -> SystemctlCommand.action("start", bad, false))
                    .isInstanceOf(CommandExecutionException.class).hasMessageContaining("Invalid service name");
        }
    }

    @Test
    void listingsNameServicesBareAndSkipTemplates() {
        String units = "  ssh.service   loaded active running OpenBSD Secure Shell server\n"
                + "● failed.service loaded failed failed Broken\n"
                + "  cron.timer loaded active waiting Daily\n"
                + "  dev-sda.device loaded active plugged disk\n";
        assertThat(UnitListing.units(units)).containsExactly("cron.timer", "dev-sda.device", "failed", "ssh");

        Map<String, String> files = UnitListing.unitFiles("ssh.service enabled enabled\n"
                + "getty@.service enabled enabled\nrescue.target static -\n");
        assertThat(files).containsEntry("ssh.service", "enabled").containsEntry("rescue.target", "static");
        assertThat(UnitListing.saltName("getty@.service")).isNull();
        assertThat(UnitListing.saltName("rescue.target")).isEqualTo("rescue.target");
    }
}
