package io.jsalt.minion.pillar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.minion.channel.NotSignedInException;
import io.jsalt.minion.channel.UnexpectedReplyException;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.transport.RequestTimeoutException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A state run's pillar: asked of the master each time, again after a timeout, kept in memory when it is the minion's own. */
class StateRunPillarTest {
    private final MinionPillar memory = new MinionPillar();
    /** What the master does at each request, in order: a pillar to answer, or an exception to throw. */
    private final Deque<Object> master = new ArrayDeque<>();
    private int asked;
    private final StateRunPillar pillar = new StateRunPillar((override, saltenv, pillarenv) -> {
        asked++;
        Object next = master.pop();
        if (next instanceof RuntimeException e) {
            throw e;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) next;
        return answer;
    }, memory);

    @Test
    void aMasterThatTimesOutIsAskedAgainAndItsAnswerBecomesThePillarInMemory() {
        memory.set(Map.of("stale", true));
        master.add(new RequestTimeoutException("no answer from tcp://127.0.0.1:1 within 5000 ms"));
        master.add(Map.of("role", "web"));

        assertThat(pillar.fetch(Map.of(), null, null)).isEqualTo(Map.of("role", "web"));
        assertThat(asked).isEqualTo(2);
        assertThat(memory.get()).isEqualTo(Map.of("role", "web"));
    }

    @Test
    void aPillarForAnOverrideOrAnotherEnvironmentIsNotKeptInMemory() {
        memory.set(Map.of("own", true));
        master.add(Map.of("role", "override"));
        master.add(Map.of("role", "dev"));
        master.add(Map.of("role", "pillarenv"));

        assertThat(pillar.fetch(Map.of("role", "override"), null, null)).containsEntry("role", "override");
        assertThat(pillar.fetch(Map.of(), "dev", null)).containsEntry("role", "dev");
        assertThat(pillar.fetch(Map.of(), null, "dev")).containsEntry("role", "pillarenv");
        assertThat(memory.get()).isEqualTo(Map.of("own", true));
    }

    @Test
    void threeTimeoutsEndTheRunWithAnErrorNamingTheCauseAndTheMemoryUnchanged() {
        memory.set(Map.of("own", true));
        for (int i = 0; i < 3; i++) {
            master.add(new RequestTimeoutException("no answer from tcp://127.0.0.1:1 within 5000 ms"));
        }

        assertThatThrownBy(() -> pillar.fetch(Map.of(), null, null)).isInstanceOf(CommandExecutionException.class)
                .hasMessage("no pillar from the master for this state run (3 tries): no answer from tcp://127.0.0.1:1 within 5000 ms");
        assertThat(asked).isEqualTo(3);
        assertThat(memory.get()).isEqualTo(Map.of("own", true));
    }

    @Test
    void aRefusalOrNoMasterSignedInIsNotAskedAgain() {
        master.add(new UnexpectedReplyException("the master answered false instead of a private reply"));
        assertThatThrownBy(() -> pillar.fetch(Map.of(), null, null)).isInstanceOf(CommandExecutionException.class)
                .hasMessage("no pillar from the master for this state run (1 try): the master answered false instead of a private reply");

        master.add(new NotSignedInException());
        assertThatThrownBy(() -> pillar.fetch(Map.of(), null, null)).hasMessageEndingWith("not signed in to the master");
        assertThat(asked).isEqualTo(2);
    }
}
