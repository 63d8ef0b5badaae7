package io.jsalt.master.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Grains a master takes while the cluster's database is away are newer than the database's rows: when the database
 * is back, the master writes them there before it reads every row again, instead of going back to the older rows.
 */
class GrainsThroughADatabaseOutageTest {

    /** The cluster's store, in memory, with the verified-grains rules of the real one, that can be taken away. */
    static final class Store implements SharedMinionData {
        final Map<String, Stored> rows = new HashMap<>();
        boolean down;

        private void reachable() {
            if (down) {
                throw new IllegalStateException("the database is unreachable");
            }
        }

        @Override
        public synchronized Map<String, Stored> readAll() {
            reachable();
            return Map.copyOf(rows);
        }

        @Override
        public synchronized Optional<Stored> read(String id) {
            reachable();
            return Optional.ofNullable(rows.get(id));
        }

        @Override
        public synchronized boolean write(String id, Stored data) {
            reachable();
            Stored before = rows.get(id);
            if (before != null && before.verified() && (!data.verified()
                    || before.stamp() != null && (data.stamp() == null || data.stamp() < before.stamp()))) {
                return false;
            }
            rows.put(id, data);
            return true;
        }

        @Override
        public synchronized void remove(String id) {
            reachable();
            rows.remove(id);
        }
    }

    final Store store = new Store();
    final MinionDataCache cache = new MinionDataCache(store);

    @Test
    void grainsTakenWhileTheDatabaseWasAwayAreWrittenThereWhenItIsBackNotReplacedByItsOlderRows() {
        cache.putGrains("web1", Map.of("role", "old"), true, 100L);
        cache.putGrains("web2", Map.of("role", "db"), true, 100L);

        store.down = true;
        assertThat(cache.putGrains("web1", Map.of("role", "new"), true, 200L)).isTrue();
        assertThat(cache.grains("web1")).contains(Map.of("role", "new")); // targeting goes on with what it took
        assertThatThrownBy(cache::reloadAll).isInstanceOf(IllegalStateException.class);
        assertThat(cache.grains("web1")).contains(Map.of("role", "new"));

        store.down = false;
        cache.reloadAll();

        assertThat(cache.grains("web1")).contains(Map.of("role", "new"));
        assertThat(store.rows.get("web1").grains()).isEqualTo(Map.of("role", "new"));
        assertThat(cache.grains("web2")).contains(Map.of("role", "db"));
    }

    @Test
    void keptGrainsThatAnotherMasterOvertookMeanwhileGiveWayToTheDatabasesNewerRow() {
        cache.putGrains("web1", Map.of("role", "old"), true, 100L);
        store.down = true;
        cache.putGrains("web1", Map.of("role", "mine"), true, 200L);
        store.down = false;
        store.rows.put("web1", new SharedMinionData.Stored(Map.of("role", "theirs"), true, 300L)); // another master's, later

        cache.reloadAll();

        assertThat(cache.grains("web1")).contains(Map.of("role", "theirs"));
        assertThat(store.rows.get("web1").grains()).isEqualTo(Map.of("role", "theirs"));
    }

    @Test
    void aMinionForgottenDuringTheOutageIsNotWrittenBack() {
        cache.putGrains("web1", Map.of("role", "old"), true, 100L);
        store.down = true;
        cache.putGrains("web1", Map.of("role", "new"), true, 200L);
        cache.forget("web1"); // its key deleted here while the database was away
        store.down = false;
        store.rows.remove("web1"); // and on the database's side, as the key deletion reaches it

        cache.reloadAll();

        assertThat(cache.grains("web1")).isEmpty();
        assertThat(store.rows).doesNotContainKey("web1");
    }
}
