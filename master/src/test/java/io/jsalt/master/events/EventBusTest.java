package io.jsalt.master.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.support.RecordedEvents;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventBusTest {
    final EventBus bus = new EventBus();

    @Test
    void firesACopyOfTheDataStampedWithTheUtcTime() {
        RecordedEvents events = new RecordedEvents();
        bus.addListener(events);
        Map<String, Object> data = new HashMap<>(Map.of("id", "web1"));

        bus.fire("salt/key", data);

        assertThat(data).doesNotContainKey("_stamp");
        assertThat(events.all()).singleElement().satisfies(e -> {
            assertThat(e.tag()).isEqualTo("salt/key");
            assertThat(e.data()).containsEntry("id", "web1");
            LocalDateTime stamp = LocalDateTime.parse((String) e.data().get("_stamp"));
            assertThat(stamp).isAfter(LocalDateTime.now(java.time.ZoneOffset.UTC).minusMinutes(1));
        });
    }

    @Test
    void aFailingListenerDoesNotKeepTheEventFromTheOthers() {
        RecordedEvents before = new RecordedEvents();
        RecordedEvents after = new RecordedEvents();
        bus.addListener(before);
        bus.addListener(event -> {
            throw new IllegalStateException("boom");
        });
        bus.addListener(after);

        bus.fire("a", Map.of());
        bus.fire("b", Map.of());

        assertThat(before.tags()).containsExactly("a", "b");
        assertThat(after.tags()).containsExactly("a", "b");
    }

    @Test
    void aRemovedListenerHearsNothingMore() {
        RecordedEvents events = new RecordedEvents();
        bus.addListener(events);
        bus.fire("a", Map.of());

        bus.removeListener(events);
        bus.fire("b", Map.of());

        assertThat(events.tags()).containsExactly("a");
    }
}
