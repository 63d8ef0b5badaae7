package io.jsalt.master.supervision;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.event.EventFrame;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fleet table saved in SQLite: a new master (a new table over the same file) starts with what it knew. */
class SqliteFleetStoreTest {
    private static final Instant NOW = Instant.parse("2026-11-25T02:00:00Z");
    @TempDir
    Path cachedir;

    private static EventFrame change(String id, String process, String state, long pid, Object exitstatus) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", process);
        data.put("group", "grp");
        data.put("state", state);
        data.put("pid", pid);
        data.put("exitstatus", exitstatus);
        data.put("since", 1_795_000_000.5);
        data.put("restarts", 3);
        data.put("description", "pid " + pid);
        data.put("id", id);
        return new EventFrame("jsalt/supervisor/" + id + "/" + process + "/" + state, data);
    }

    @Test
    void aRestartedMasterStartsWithTheRowsItHadAndForgetsADeletedMinion() throws Exception {
        try (FleetProcesses fleet = new FleetProcesses(Clock.fixed(NOW, ZoneOffset.UTC), SqliteFleetStore.open(cachedir))) {
            fleet.onEvent(change("web1", "app", "RUNNING", 10, null));
            fleet.onEvent(change("web1", "crash", "FATAL", 0, 1));
            fleet.onEvent(change("web2", "app", "RUNNING", 20, null));
            fleet.onEvent(change("web2", "app", "EXITED", 0, 137));
            fleet.onEvent(change("web3", "app", "RUNNING", 30, null));
            fleet.forget("web3");
            fleet.onEvent(change("web1", "removed", "STOPPED", 0, 0));
            fleet.onEvent(new EventFrame("jsalt/supervisor/web1/removed/REMOVED", Map.of("id", "web1")));
            fleet.onEvent(change("web2", "dropped", "RUNNING", 21, null));
            fleet.onEvent(new EventFrame("jsalt/supervisor/web2/processes", Map.of("processes", java.util.List.of("app"),
                    "id", "web2")));
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cachedir.resolve("supervision.sqlite"))))
                .isEqualTo("rw-------");

        Instant later = NOW.plusSeconds(90);
        try (FleetProcesses again = new FleetProcesses(Clock.fixed(later, ZoneOffset.UTC), SqliteFleetStore.open(cachedir))) {
            Map<String, Map<String, Object>> status = again.status(null, null, null);
            assertThat(status).containsOnlyKeys("web1", "web2");
            assertThat(status.get("web1")).containsOnlyKeys("app", "crash");
            assertThat(status.get("web2")).as("rows dropped are deleted from the file").containsOnlyKeys("app");
            @SuppressWarnings("unchecked")
            Map<String, Object> crash = (Map<String, Object>) status.get("web1").get("crash");
            assertThat(crash).containsEntry("state", "FATAL").containsEntry("exitstatus", 1L).containsEntry("group", "grp")
                    .containsEntry("restarts", 3).containsEntry("since", 1_795_000_000.5)
                    .containsEntry("reported_seconds_ago", 90L);
            @SuppressWarnings("unchecked")
            Map<String, Object> app = (Map<String, Object>) status.get("web2").get("app");
            assertThat(app).containsEntry("state", "EXITED").containsEntry("exitstatus", 137L).containsEntry("pid", 0L);
            @SuppressWarnings("unchecked")
            Map<String, Object> running = (Map<String, Object>) status.get("web1").get("app");
            assertThat(running).containsEntry("exitstatus", null).containsEntry("pid", 10L);
        }
    }

    @Test
    void aFileThatIsNotADatabaseLeavesTheTableInMemoryAndTheMasterRunning() throws Exception {
        Files.writeString(cachedir.resolve("supervision.sqlite"), "not a database, not at all; ".repeat(100));
        try (FleetProcesses fleet = new FleetProcesses(Clock.fixed(NOW, ZoneOffset.UTC), SqliteFleetStore.open(cachedir))) {
            fleet.onEvent(change("web1", "app", "RUNNING", 10, null));
            assertThat(fleet.status(null, null, null)).containsOnlyKeys("web1");
        }
    }
}
