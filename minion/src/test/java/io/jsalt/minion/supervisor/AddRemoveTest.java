package io.jsalt.minion.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.modules.api.CommandExecutionException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code supervisor.add} defines programs pushed from the master, kept in the minion's own folder and read
 * again by the next supervisor; {@code supervisor.remove} takes them away. Neither touches another program.
 */
class AddRemoveTest {
    @TempDir
    Path dir;
    private final List<SupervisorHarness> harnesses = new ArrayList<>();

    @AfterEach
    void killEveryChild() {
        harnesses.forEach(SupervisorHarness::close);
    }

    private SupervisorHarness supervise(Map<String, Object> programs) {
        SupervisorHarness h = new SupervisorHarness(dir, programs).start();
        harnesses.add(h);
        return h;
    }

    private static Map<String, Object> keys(Object... keysAndValues) {
        Map<String, Object> keys = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            keys.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return keys;
    }

    @Test
    void addStartsAProgramKeepsItsDefinitionAndTouchesNoOther() throws Exception {
        SupervisorHarness h = supervise(Map.of("keep", keys("command", "sleep 1000", "startsecs", "0")));
        long keep = h.awaitState("keep", ProcessState.RUNNING).pid();
        SupervisorModule functions = new SupervisorModule(h.supervisor);

        assertThat(functions.add("app", keys("command", "sleep 1001", "startsecs", "0", "__pub_jid", "2026")))
                .isEqualTo("app: added process group");
        long app = h.awaitState("app", ProcessState.RUNNING).pid();
        Path file = h.pushed.file("app");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
        assertThat(Files.readString(file)).contains("[program:app]", "command = sleep 1001").doesNotContain("__pub");

        // the same keys again: nothing to do; other keys: that program alone is restarted
        assertThat(functions.add("app", keys("command", "sleep 1001", "startsecs", "0"))).isEqualTo("app: unchanged");
        assertThat(h.status("app").pid()).isEqualTo(app);
        assertThat(functions.add("app", keys("command", "sleep 1002", "startsecs", "0")))
                .isEqualTo("app: stopped\napp: updated process group");
        long changed = h.awaitStatus("app", s -> s.state() == ProcessState.RUNNING && s.pid() != app).pid();
        assertThat(ProcessHandle.of(changed).flatMap(p -> p.info().commandLine())).hasValueSatisfying(
                c -> assertThat(c).endsWith("sleep 1002"));
        assertThat(h.status("keep").pid()).as("another program is not touched").isEqualTo(keep);

        // a new supervisor (the minion restarted) reads the added program again
        h.closeSupervisor();
        SupervisorHarness next = supervise(Map.of("keep", keys("command", "sleep 1000", "startsecs", "0")));
        assertThat(next.awaitState("app", ProcessState.RUNNING).pid()).isPositive();

        assertThat(new SupervisorModule(next.supervisor).remove("app")).isEqualTo("app: stopped\napp: removed process group");
        assertThat(next.supervisor.status("app")).isEmpty();
        assertThat(next.removed).as("the master is told to drop its row").containsExactly("app");
        assertThat(file).doesNotExist();
        assertThat(next.status("keep").state()).isEqualTo(ProcessState.RUNNING);
    }

    @Test
    void aBadDefinitionIsRefusedAndWritesNothing() {
        SupervisorHarness h = supervise(Map.of("keep", keys("command", "sleep 1000", "startsecs", "0")));
        SupervisorModule functions = new SupervisorModule(h.supervisor);

        assertThatThrownBy(() -> functions.add("app", keys("command", "sleep 1", "startsecs", "soon")))
                .isInstanceOf(CommandExecutionException.class).hasMessageContaining("startsecs");
        assertThatThrownBy(() -> functions.add("../evil", keys("command", "sleep 1")))
                .isInstanceOf(CommandExecutionException.class).hasMessageContaining("name: expected");
        assertThatThrownBy(() -> functions.add("app", keys("command", "sleep 1\n[program:evil]\ncommand=rm -rf /")))
                .isInstanceOf(CommandExecutionException.class).hasMessageContaining("line break");
        assertThatThrownBy(() -> functions.add("app", keys("autostart", "true")))
                .isInstanceOf(CommandExecutionException.class).hasMessageContaining("command: required");
        assertThatThrownBy(() -> functions.add("keep", keys("command", "sleep 2")))
                .isInstanceOf(CommandExecutionException.class).hasMessageContaining("already defined");
        assertThatThrownBy(() -> functions.add("app", keys("command", "sleep 1", "conf_file", "/etc/x")))
                .isInstanceOf(CommandExecutionException.class).hasMessageContaining("conf_file");

        assertThat(h.pushed.dir()).satisfiesAnyOf(d -> assertThat(d).doesNotExist(), d -> assertThat(d).isEmptyDirectory());
        assertThat(h.supervisor.status("all")).extracting(ProcessSnapshot::name).containsExactly("keep");
        assertThat(functions.remove("keep")).contains("keep: ERROR (not added by supervisor.add");
        assertThat(functions.remove("nothing")).isEqualTo("nothing: ERROR (no such process)");
        assertThat(h.status("keep").state()).isEqualTo(ProcessState.RUNNING);
    }
}
