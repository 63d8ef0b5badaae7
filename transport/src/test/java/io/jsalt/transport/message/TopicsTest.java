package io.jsalt.transport.message;

import static io.jsalt.transport.message.Vectors.RUN2;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** zmq_filtering topics, as salt-master 3006.8 put them in front of each publication. */
class TopicsTest {

    @Test
    void hashesTheVectorMinionIdAsTheReadmeStates() {
        assertThat(new String(Topics.ofMinion("vector-minion"), StandardCharsets.US_ASCII))
                .isEqualTo("5482896d72e36e3ba780c112924d82d254f7d81f");
        assertThat(Vectors.text("keys/minion_id").strip()).isEqualTo("vector-minion");
    }

    @Test
    void equalsTheTopicFrameOfEveryFilteredPublicationInTheSecondRun() {
        List<String> topicFrames = Vectors.list(RUN2, "-frame0-topic.bin");

        assertThat(topicFrames).hasSize(3);
        for (String frame : topicFrames) {
            assertThat(Topics.ofMinion(Vectors.MINION_ID)).as(frame).isEqualTo(Vectors.bytes(frame));
            assertThat(Vectors.describing(frame)).as(frame).containsEntry("topic", "5482896d72e36e3ba780c112924d82d254f7d81f");
        }
    }

    @Test
    void givesDifferentTopicsToDifferentMinionsAndTheSameToTheSame() {
        assertThat(Topics.ofMinion("web1")).isEqualTo(Topics.ofMinion("web1")).isNotEqualTo(Topics.ofMinion("web2"));
        assertThat(Topics.ofMinion("web1")).hasSize(40);
    }

    @Test
    void namesTheBroadcastTopicAsSaltDoes() {
        assertThat(Topics.BROADCAST).asString(StandardCharsets.US_ASCII).isEqualTo("broadcast");
    }
}
