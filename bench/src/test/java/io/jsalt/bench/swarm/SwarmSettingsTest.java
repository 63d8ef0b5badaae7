package io.jsalt.bench.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SwarmSettingsTest {

    @Test
    void aWorkerReadsBackEverySettingItsDriverPassedOnTheCommandLine() {
        SwarmSettings s = new SwarmSettings(Path.of("/tmp/run/swarm-3"), Path.of("/tmp/keys"), 4506, 4505, 3750, 1250, 60, 5,
                true, "light", 0, 1000, 5, 25);

        SwarmSettings back = SwarmSettings.fromArgs(s.toArgs().toArray(String[]::new));

        assertThat(back).isEqualTo(s);
    }

    @Test
    void aWorkerGetsOneIoThreadPerTwoHundredFiftyMinionsAndAtLeastOne() {
        assertThat(SwarmSettings.ioThreadsFor(1)).isEqualTo(1);
        assertThat(SwarmSettings.ioThreadsFor(250)).isEqualTo(1);
        assertThat(SwarmSettings.ioThreadsFor(251)).isEqualTo(2);
        assertThat(SwarmSettings.ioThreadsFor(1250)).isEqualTo(5);
    }
}
