package io.jsalt.cli.daemon;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The settings that differ between two configs of the same record type, named as config keys
 * ({@code masterFinger} → {@code master_finger}): what a reload reports as needing a restart when the
 * daemon cannot apply it live.
 */
final class ConfigChanges {
    private ConfigChanges() {}

    /** @param ignored record components applied live elsewhere (the log settings) */
    static <R extends Record> List<String> between(R was, R is, Set<String> ignored) {
        List<String> changed = new ArrayList<>();
        for (RecordComponent c : was.getClass().getRecordComponents()) {
            if (ignored.contains(c.getName())) {
                continue;
            }
            try {
                if (!Objects.equals(c.getAccessor().invoke(was), c.getAccessor().invoke(is))) {
                    changed.add(keyName(c.getName()));
                }
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + c.getName(), e);
            }
        }
        return changed;
    }

    static String keyName(String component) {
        if ("masters".equals(component)) {
            return "master"; // MinionConfig.masters: the list of masters and how to use them, read from master and master_*
        }
        return component.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }
}
