package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Supervisor's own ini files, read from a conf.d folder as they are. */
class IniProgramsTest {
    @TempDir
    Path dir;

    @Test
    void readsProgramSectionsWithCommentsAndContinuationLines() {
        List<IniPrograms.Section> sections = IniPrograms.parse("""
                ; a Supervisor file as Debian ships them
                [supervisord]
                logfile=/var/log/supervisor/supervisord.log

                [program:web]
                command = /usr/bin/web --flag ; an inline comment
                environment = A="1",
                    B="2"
                # a full-line comment
                autorestart: true
                url = http://host/#fragment

                [group:all]
                programs=web
                """, dir.resolve("web.conf"));

        assertThat(sections).hasSize(1);
        assertThat(sections.get(0).program()).isEqualTo("web");
        assertThat(sections.get(0).keys()).containsExactly(Map.entry("command", "/usr/bin/web --flag"),
                Map.entry("environment", "A=\"1\",\nB=\"2\""), Map.entry("autorestart", "true"),
                Map.entry("url", "http://host/#fragment"));
    }

    @Test
    void readsGroupSectionsAndTheirPrograms() {
        IniPrograms.Sections sections = IniPrograms.parseAll("[program:a]\ncommand=sleep 1\n[group:web]\n"
                + "programs = a, b,c\npriority = 10\n", dir.resolve("web.conf"));

        assertThat(sections.groups()).containsOnlyKeys("web");
        assertThat(sections.groups().get("web").programs()).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> IniPrograms.parseAll("[group:web]\npriority=1\n", dir.resolve("web.conf")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("[group:web] programs");
    }

    @Test
    void readsEveryConfAndIniFileOfTheFolderAndSkipsOthers() throws Exception {
        Files.writeString(dir.resolve("b.conf"), "[program:b]\ncommand=sleep 1\n");
        Files.writeString(dir.resolve("a.ini"), "[program:a]\ncommand=sleep 1\n");
        Files.writeString(dir.resolve("c.conf.disabled"), "[program:c]\ncommand=sleep 1\n");
        tighten();

        assertThat(IniPrograms.read(dir)).containsOnlyKeys("a", "b");
        assertThat(IniPrograms.read(dir.resolve("absent"))).isEmpty();
    }

    @Test
    void refusesAProgramDefinedTwice() throws Exception {
        Files.writeString(dir.resolve("a.conf"), "[program:x]\ncommand=sleep 1\n");
        Files.writeString(dir.resolve("b.conf"), "[program:x]\ncommand=sleep 2\n");
        tighten();

        assertThatThrownBy(() -> IniPrograms.read(dir)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("b.conf").hasMessageContaining("a.conf");
    }

    @Test
    void refusesALineThatIsNotKeyValue() {
        assertThatThrownBy(() -> IniPrograms.parse("[program:x]\njust words\n", dir.resolve("x.conf")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("line 2");
    }

    @Test
    void refusesAFileOrFolderOthersMayWrite() throws Exception {
        Path file = Files.writeString(dir.resolve("a.conf"), "[program:a]\ncommand=sleep 1\n");
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-r--"));
        assertThatThrownBy(() -> IniPrograms.read(dir)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("a.conf").hasMessageContaining("writable by group or others");

        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> IniPrograms.read(dir)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("writable by group or others");

        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(IniPrograms.read(dir)).containsOnlyKeys("a");
    }

    /** Whatever the umask: files others may write are refused. */
    private void tighten() throws Exception {
        Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            }
        }
    }
}
