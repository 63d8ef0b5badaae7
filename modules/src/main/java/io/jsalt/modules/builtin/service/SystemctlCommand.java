package io.jsalt.modules.builtin.service;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Builds the systemctl command lines Salt's {@code systemd_service} module runs. A name without a unit
 * type suffix is a service ({@code nginx} is {@code nginx.service}). Names are checked before use, so a
 * name cannot smuggle an option ({@code --root=...}) into systemctl.
 */
public final class SystemctlCommand {

    /** Salt's VALID_UNIT_TYPES. */
    public static final Set<String> UNIT_TYPES = Set.of("service", "socket", "device", "mount", "automount",
            "swap", "target", "path", "timer");

    // systemd's unit name characters, plus '@' for templates and '*?[]' for is-active globs
    private static final Pattern UNIT_NAME = Pattern.compile("[A-Za-z0-9:_.@\\\\-]+");
    private static final String SYSTEMCTL = "systemctl";

    private SystemctlCommand() {
    }

    /** The unit's full name: {@code nginx} becomes {@code nginx.service}. */
    public static String canonicalUnitName(String name) {
        if (name == null || name.isEmpty() || name.startsWith("-") || !UNIT_NAME.matcher(name).matches()) {
            throw new CommandExecutionException("Invalid service name '" + name + "'");
        }
        int dot = name.lastIndexOf('.');
        if (dot > 0 && UNIT_TYPES.contains(name.substring(dot + 1))) {
            return name;
        }
        return name + ".service";
    }

    /** {@code systemctl [--no-block] <action> <unit>}, e.g. start, stop, restart, reload, enable, disable, unmask. */
    public static List<String> action(String action, String name, boolean noBlock) {
        List<String> argv = new ArrayList<>();
        argv.add(SYSTEMCTL);
        if (noBlock) {
            argv.add("--no-block");
        }
        argv.add(action);
        argv.add(canonicalUnitName(name));
        return argv;
    }

    /** {@code systemctl unmask [--runtime] <unit>}. */
    public static List<String> unmask(String name, boolean runtime) {
        List<String> argv = new ArrayList<>(List.of(SYSTEMCTL, "unmask"));
        if (runtime) {
            argv.add("--runtime");
        }
        argv.add(canonicalUnitName(name));
        return argv;
    }

    /** {@code systemctl is-active <unit>}: exit code 0 when it runs. */
    public static List<String> isActive(String name) {
        return List.of(SYSTEMCTL, "is-active", canonicalUnitName(name));
    }

    /** {@code systemctl is-enabled <unit>}: exit code 0 when it is enabled. */
    public static List<String> isEnabled(String name) {
        return List.of(SYSTEMCTL, "is-enabled", canonicalUnitName(name));
    }

    /** Every loaded unit, one per line. */
    public static List<String> listUnits() {
        return List.of(SYSTEMCTL, "--all", "--full", "--no-legend", "--no-pager", "list-units");
    }

    /** Every installed unit file with its state, one per line. */
    public static List<String> listUnitFiles() {
        return List.of(SYSTEMCTL, "--full", "--no-legend", "--no-pager", "list-unit-files");
    }
}
