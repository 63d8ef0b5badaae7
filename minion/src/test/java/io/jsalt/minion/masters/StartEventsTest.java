package io.jsalt.minion.masters;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.Wire;
import io.jsalt.transport.message.MinionEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartEventsTest {
    private static final byte[] TOK = {1, 2, 3};
    private static final String TEXT = "Minion web1 started at Sat Nov 28 06:00:00 2026";

    @Test
    void aSaltMasterGetsOneRequestPerEventAsASaltMinionSendsThem() {
        List<Map<String, Object>> loads = StartEvents.loads("web1", TOK, TEXT, false);

        assertThat(loads).containsExactly(new MinionEvent("web1", TOK, "minion_start", TEXT).toLoad(),
                new MinionEvent("web1", TOK, "salt/minion/web1/start", TEXT).toLoad());
    }

    @Test
    void aJsaltMasterGetsBothInOneRequestInSaltsBatchedForm() {
        List<Map<String, Object>> loads = StartEvents.loads("web1", TOK, TEXT, true);

        assertThat(loads).hasSize(1);
        Map<String, Object> load = Wire.asMap(SaltPack.unpack(SaltPack.pack(loads.get(0)))); // as the master reads it
        assertThat(load).containsEntry("id", "web1").containsEntry("cmd", "_minion_event").doesNotContainKey("tag");
        assertThat(Wire.bytes(load, "tok")).isEqualTo(TOK);
        assertThat(load.get("events")).isEqualTo(List.of(Map.of("tag", "minion_start", "data", TEXT),
                Map.of("tag", "salt/minion/web1/start", "data", TEXT)));
    }
}
