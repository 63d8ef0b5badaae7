package io.jsalt.modules.builtin.service;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Reads systemctl's {@code list-units} and {@code list-unit-files} tables and names units the way Salt
 * does: a service by its bare name ({@code ssh}), any other unit with its type ({@code cron.timer}).
 */
public final class UnitListing {

    private UnitListing() {
    }

    /** The unit names in the first column of {@code list-units} (a leading status bullet is skipped). */
    public static SortedSet<String> units(String listUnits) {
        SortedSet<String> names = new TreeSet<>();
        for (String line : listUnits.split("\n")) {
            String[] columns = line.strip().replaceFirst("^[●*×]\\s*", "").split("\\s+");
            addUnit(names, columns[0]);
        }
        return names;
    }

    /** {@code list-unit-files} as unit file name to state (enabled, disabled, static, masked...). */
    public static Map<String, String> unitFiles(String listUnitFiles) {
        Map<String, String> states = new LinkedHashMap<>();
        for (String line : listUnitFiles.split("\n")) {
            String[] columns = line.strip().split("\\s+");
            if (columns.length >= 2 && columns[0].contains(".")) {
                states.put(columns[0], columns[1]);
            }
        }
        return states;
    }

    /** Salt's name for a unit, or null for what is not a unit of a known type, or a template ({@code getty@.service}). */
    public static String saltName(String unit) {
        int dot = unit.lastIndexOf('.');
        if (dot <= 0 || unit.contains("@.")) {
            return null;
        }
        String type = unit.substring(dot + 1);
        if (!SystemctlCommand.UNIT_TYPES.contains(type)) {
            return null;
        }
        return type.equals("service") ? unit.substring(0, dot) : unit;
    }

    private static void addUnit(SortedSet<String> names, String unit) {
        String name = saltName(unit);
        if (name != null) {
            names.add(name);
        }
    }
}
