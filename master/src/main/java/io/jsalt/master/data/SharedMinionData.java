package io.jsalt.master.data;

import java.util.Map;
import java.util.Optional;

/**
 * Where the minions' grains live when several masters share them (a cluster's database): the
 * {@link MinionDataCache} of each master holds them in memory, writes through here, and reads an id again
 * when told that another master changed it. The rules of the cache hold here too, decided by the store:
 * verified grains are never replaced by unverified ones, nor by verified ones stamped earlier.
 */
public interface SharedMinionData {
    /** Grains as stored, with whether the minion's key signed them and when it sent them. */
    record Stored(Map<String, Object> grains, boolean verified, Long stamp) {}

    Map<String, Stored> readAll();

    Optional<Stored> read(String id);

    /** Stores the grains unless the store holds verified ones they may not replace; false then. */
    boolean write(String id, Stored data);

    void remove(String id);
}
