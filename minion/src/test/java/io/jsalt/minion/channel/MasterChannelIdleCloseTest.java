package io.jsalt.minion.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.transport.RequestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A minion's request connection is closed once idle for as long as asked: a master counts one descriptor per open one. */
class MasterChannelIdleCloseTest {
    @Test
    void asksItsRequestClientToCloseTheConnectionOnceIdle() {
        List<Duration> asked = new ArrayList<>();

        new MasterChannel(recording(asked), () -> null, s -> null, Duration.ofSeconds(1));

        assertThat(asked).containsExactly(MasterChannel.IDLE_CLOSE);
        assertThat(MasterChannel.IDLE_CLOSE).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aMinionsRequestIdleCloseIsPassedOnAsConfigured() {
        List<Duration> asked = new ArrayList<>();

        new MasterChannel(recording(asked), () -> null, s -> null, Duration.ofSeconds(1), Duration.ofSeconds(60));
        new MasterChannel(recording(asked), () -> null, s -> null, Duration.ofSeconds(1), Duration.ZERO);

        assertThat(asked).containsExactly(Duration.ofSeconds(60), Duration.ZERO);
    }

    private static RequestClient recording(List<Duration> asked) {
        return new RequestClient() {
            @Override
            public byte[] request(byte[] payload, Duration timeout) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void closeWhenIdle(Duration idle) {
                asked.add(idle);
            }

            @Override
            public void close() {
            }
        };
    }
}
