package io.jsalt.bench.swarm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jsalt.minion.channel.MasterChannel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RequestIdleBudgetTest {
    @Test
    void aSwarmWhoseConnectionsFitTheMastersDescriptorsKeepsThemAsAJsaltMinionDoes() {
        assertEquals(Duration.ofSeconds(60), RequestIdleBudget.forSwarmOf(1000, 20_000));
        assertEquals(Duration.ofSeconds(60), RequestIdleBudget.forSwarmOf(9500, 20_000));
    }

    @Test
    void aSwarmTooBigForThemClosesItsRequestConnectionsSoon() {
        assertEquals(MasterChannel.IDLE_CLOSE, RequestIdleBudget.forSwarmOf(10_000, 20_000));
        assertEquals(MasterChannel.IDLE_CLOSE, RequestIdleBudget.forSwarmOf(1, 0));
    }

    @Test
    void thisProcessHasALimitOnOpenFiles() {
        assertTrue(RequestIdleBudget.openFilesLimit() > 0);
    }
}
