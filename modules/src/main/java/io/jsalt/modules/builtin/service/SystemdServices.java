package io.jsalt.modules.builtin.service;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.ExternalTool;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Services through {@code systemctl}, as Salt's systemd_service module: a failed start, stop, restart or reload is
 * an error carrying systemctl's message, as Salt raises it.
 */
public final class SystemdServices implements ServiceManager {

    // systemctl waits for a unit's start job; a unit may take minutes, a job's own timeout cuts it shorter
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    @Override
    public boolean running(String name) {
        return systemctl(SystemctlCommand.isActive(name)).exitCode() == 0;
    }

    @Override
    public boolean control(String action, String name, Options options) {
        unmaskFirst(name, options);
        CommandOutcome outcome = systemctl(SystemctlCommand.action(action, name, options.noBlock()));
        if (outcome.exitCode() != 0) {
            // Salt raises with systemctl's stderr so the caller sees why
            throw new CommandExecutionException(ExternalTool.complaint(outcome));
        }
        return true;
    }

    @Override
    public boolean enable(String name, Options options) {
        unmaskFirst(name, options);
        return systemctl(SystemctlCommand.action("enable", name, options.noBlock())).exitCode() == 0;
    }

    @Override
    public boolean disable(String name, Options options) {
        return systemctl(SystemctlCommand.action("disable", name, options.noBlock())).exitCode() == 0;
    }

    @Override
    public boolean isEnabled(String name) {
        return systemctl(SystemctlCommand.isEnabled(name)).exitCode() == 0;
    }

    @Override
    public boolean isDisabled(String name) {
        return !isEnabled(name);
    }

    @Override
    public boolean available(String name) {
        String unit = SystemctlCommand.canonicalUnitName(name);
        return all().contains(UnitListing.saltName(unit));
    }

    @Override
    public SortedSet<String> all() {
        SortedSet<String> names = UnitListing.units(successfulOutput(SystemctlCommand.listUnits()));
        UnitListing.unitFiles(successfulOutput(SystemctlCommand.listUnitFiles())).keySet().forEach(unit -> {
            String name = UnitListing.saltName(unit);
            if (name != null) {
                names.add(name);
            }
        });
        return names;
    }

    @Override
    public SortedSet<String> enabled() {
        return unitFilesIn("enabled");
    }

    /** As Salt's systemd_service: the unit files whose state is "disabled" (not static, masked, ...). */
    @Override
    public SortedSet<String> disabled() {
        return unitFilesIn("disabled");
    }

    private SortedSet<String> unitFilesIn(String wanted) {
        SortedSet<String> names = new TreeSet<>();
        UnitListing.unitFiles(successfulOutput(SystemctlCommand.listUnitFiles())).forEach((unit, state) -> {
            String name = UnitListing.saltName(unit);
            if (name != null && state.equals(wanted)) {
                names.add(name);
            }
        });
        return names;
    }

    private void unmaskFirst(String name, Options options) {
        if (options.unmask() || options.unmaskRuntime()) {
            CommandOutcome outcome = systemctl(SystemctlCommand.unmask(name, options.unmaskRuntime() && !options.unmask()));
            if (outcome.exitCode() != 0) {
                throw new CommandExecutionException("Failed to unmask " + name + ": " + ExternalTool.complaint(outcome));
            }
        }
    }

    private static String successfulOutput(List<String> argv) {
        CommandOutcome outcome = systemctl(argv);
        if (outcome.exitCode() != 0) {
            throw new CommandExecutionException(String.join(" ", argv) + " failed: " + ExternalTool.complaint(outcome));
        }
        return outcome.stdout();
    }

    private static CommandOutcome systemctl(List<String> argv) {
        return ExternalTool.run(argv, Map.of("SYSTEMD_PAGER", "", "SYSTEMD_COLORS", "0"), TIMEOUT);
    }
}
