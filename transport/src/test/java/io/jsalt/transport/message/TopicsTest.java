package io.jsalt.transport.message;

import static io.jsalt.transport.message.Vectors.RUN2;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** zmq_filtering topics, as salt-master 3006.8 put them in front of each publication, and jsalt's presence topic. */
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
    void givesEachMinionAShortPresenceTopicNoPublicationTopicStartsWith() {
        byte[] web1 = Topics.presenceOf("web1");

        assertThat(web1).hasSize(7).isEqualTo(Topics.presenceOf("web1")).isNotEqualTo(Topics.presenceOf("web2"));
        assertThat(web1[0]).isEqualTo((byte) 0xFF);
        // the first 6 bytes of sha1("web1"), whose hex is Topics.ofMinion("web1")
        assertThat(HexFormat.of().formatHex(web1, 1, 7)).isEqualTo(new String(Topics.ofMinion("web1"), StandardCharsets.US_ASCII).substring(0, 12));
    }

    @Test
    void seesAMinionByItsPresenceTopicOrItsFilteringTopicAndNoOtherMinionByEither() {
        Set<String> topics = Set.of(latin1(new byte[0]), latin1(Topics.BROADCAST), latin1(Topics.presenceOf("web1")),
                latin1(Topics.ofMinion("db1")));

        assertThat(Topics.isSubscribedBy(topics, "web1")).isTrue();
        assertThat(Topics.isSubscribedBy(topics, "db1")).isTrue();
        assertThat(Topics.isSubscribedBy(topics, "web2")).isFalse();
        assertThat(Topics.isSubscribedBy(Set.of(), "web1")).isFalse();
    }

    private static String latin1(byte[] topic) {
        return new String(topic, StandardCharsets.ISO_8859_1);
    }

    @Test
    void namesTheBroadcastTopicAsSaltDoes() {
        assertThat(Topics.BROADCAST).asString(StandardCharsets.US_ASCII).isEqualTo("broadcast");
    }
}
