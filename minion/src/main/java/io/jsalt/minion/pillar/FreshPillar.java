package io.jsalt.minion.pillar;

import java.util.Map;

/** Asks the master to compile this minion's pillar now (a {@code _pillar} request); nothing is kept. */
@FunctionalInterface
public interface FreshPillar {
    /**
     * @param override  Salt's {@code pillar_override}, merged by the master first and last
     * @param saltenv   the saltenv to ask for, or null
     * @param pillarenv only this saltenv's top-file targets, or null for all
     * @throws RuntimeException when the master does not answer or refuses
     */
    Map<String, Object> fetch(Map<String, Object> override, String saltenv, String pillarenv);
}
