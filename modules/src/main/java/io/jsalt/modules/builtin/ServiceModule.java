package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.modules.builtin.service.Systemd;
import io.jsalt.modules.builtin.service.SystemctlCommand;
import io.jsalt.modules.builtin.service.UnitListing;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Salt's {@code service} module for systemd hosts (systemd_service.py), through {@code systemctl}. On a
 * host not booted with systemd every function fails with an error that says so.
 */
@SaltModule(name = "service", doc = "Manage services with systemd (Salt's systemd_service module).")
public final class ServiceModule implements ExecutionModule {

    // systemctl waits for a unit's start job; a unit may take minutes, a job's own timeout cuts it shorter
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private final Systemd systemd;

    public ServiceModule() {
        this(Systemd.DEFAULT_MARKER);
    }

    /** For tests: decides whether systemd runs by looking at {@code marker} instead of /run/systemd/system. */
    ServiceModule(Path marker) {
        this.systemd = new Systemd(marker);
    }

    @SaltFunction(doc = "Return True if the service is running (systemctl is-active). A name with glob "
            + "characters returns {name: bool} for every matching service.\n\n"
            + "CLI Example: salt '*' service.status <service name>")
    public Object status(@Arg("name") String name, @Arg(value = "sig", defaultValue = Arg.NULL) String sig,
                         @Arg(value = "wait", defaultValue = "3") int wait) {
        systemd.require("service.status");
        if (!Glob.isGlob(name)) {
            return systemctl(SystemctlCommand.isActive(name)).exitCode() == 0;
        }
        Glob glob = Glob.of(name);
        Map<String, Object> states = new LinkedHashMap<>();
        for (String service : allUnits()) {
            if (glob.matches(service)) {
                states.put(service, systemctl(SystemctlCommand.isActive(service)).exitCode() == 0);
            }
        }
        return states;
    }

    @SaltFunction(doc = "Start the service; unmask=True (or unmask_runtime=True) unmasks it first. Returns True, "
            + "or an error with systemctl's message.\n\nCLI Example: salt '*' service.start <service name>")
    public boolean start(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock,
                         @Arg(value = "unmask", defaultValue = "false") boolean unmask,
                         @Arg(value = "unmask_runtime", defaultValue = "false") boolean unmaskRuntime) {
        return change("service.start", "start", name, noBlock, unmask, unmaskRuntime);
    }

    @SaltFunction(doc = "Stop the service. Returns True, or an error with systemctl's message.\n\n"
            + "CLI Example: salt '*' service.stop <service name>")
    public boolean stop(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock) {
        return change("service.stop", "stop", name, noBlock, false, false);
    }

    @SaltFunction(doc = "Restart the service. Returns True, or an error with systemctl's message.\n\n"
            + "CLI Example: salt '*' service.restart <service name>")
    public boolean restart(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock,
                           @Arg(value = "unmask", defaultValue = "false") boolean unmask,
                           @Arg(value = "unmask_runtime", defaultValue = "false") boolean unmaskRuntime) {
        return change("service.restart", "restart", name, noBlock, unmask, unmaskRuntime);
    }

    @SaltFunction(doc = "Reload the service's configuration. Returns True, or an error with systemctl's "
            + "message.\n\nCLI Example: salt '*' service.reload <service name>")
    public boolean reload(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock,
                          @Arg(value = "unmask", defaultValue = "false") boolean unmask,
                          @Arg(value = "unmask_runtime", defaultValue = "false") boolean unmaskRuntime) {
        return change("service.reload", "reload", name, noBlock, unmask, unmaskRuntime);
    }

    @SaltFunction(doc = "Enable the service at boot. Returns True if systemctl succeeded.\n\n"
            + "CLI Example: salt '*' service.enable <service name>")
    public boolean enable(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock,
                          @Arg(value = "unmask", defaultValue = "false") boolean unmask,
                          @Arg(value = "unmask_runtime", defaultValue = "false") boolean unmaskRuntime) {
        systemd.require("service.enable");
        unmaskFirst(name, unmask, unmaskRuntime);
        return systemctl(SystemctlCommand.action("enable", name, noBlock)).exitCode() == 0;
    }

    @SaltFunction(doc = "Disable the service at boot. Returns True if systemctl succeeded.\n\n"
            + "CLI Example: salt '*' service.disable <service name>")
    public boolean disable(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock) {
        systemd.require("service.disable");
        return systemctl(SystemctlCommand.action("disable", name, noBlock)).exitCode() == 0;
    }

    @SaltFunction(doc = "Return True if the service is enabled at boot (systemctl is-enabled).\n\n"
            + "CLI Example: salt '*' service.enabled <service name>")
    public boolean enabled(@Arg("name") String name) {
        systemd.require("service.enabled");
        return systemctl(SystemctlCommand.isEnabled(name)).exitCode() == 0;
    }

    @SaltFunction(doc = "Return True if the service is not enabled at boot.\n\n"
            + "CLI Example: salt '*' service.disabled <service name>")
    public boolean disabled(@Arg("name") String name) {
        systemd.require("service.disabled");
        return !enabled(name);
    }

    @SaltFunction(doc = "Return True if the named service (or other unit) is known to systemd.\n\n"
            + "CLI Example: salt '*' service.available sshd")
    public boolean available(@Arg("name") String name) {
        systemd.require("service.available");
        String unit = SystemctlCommand.canonicalUnitName(name);
        return allUnits().contains(UnitListing.saltName(unit));
    }

    @SaltFunction(doc = "The inverse of service.available.\n\nCLI Example: salt '*' service.missing sshd")
    public boolean missing(@Arg("name") String name) {
        systemd.require("service.missing");
        return !available(name);
    }

    @SaltFunction(doc = "Return a sorted list of all services and other units (services by their bare name).\n\n"
            + "CLI Example: salt '*' service.get_all")
    public List<String> get_all() {
        systemd.require("service.get_all");
        return new ArrayList<>(allUnits());
    }

    @SaltFunction(doc = "Return a sorted list of the units enabled at boot.\n\nCLI Example: salt '*' service.get_enabled")
    public List<String> get_enabled() {
        systemd.require("service.get_enabled");
        SortedSet<String> enabled = new TreeSet<>();
        UnitListing.unitFiles(successfulOutput(SystemctlCommand.listUnitFiles())).forEach((unit, state) -> {
            String name = UnitListing.saltName(unit);
            if (name != null && state.equals("enabled")) {
                enabled.add(name);
            }
        });
        return new ArrayList<>(enabled);
    }

    private boolean change(String function, String action, String name, boolean noBlock, boolean unmask,
                           boolean unmaskRuntime) {
        systemd.require(function);
        unmaskFirst(name, unmask, unmaskRuntime);
        CommandOutcome outcome = systemctl(SystemctlCommand.action(action, name, noBlock));
        if (outcome.exitCode() != 0) {
            // Salt raises with systemctl's stderr so the caller sees why
            throw new CommandExecutionException(ExternalTool.complaint(outcome));
        }
        return true;
    }

    private void unmaskFirst(String name, boolean unmask, boolean runtime) {
        if (unmask || runtime) {
            CommandOutcome outcome = systemctl(SystemctlCommand.unmask(name, runtime && !unmask));
            if (outcome.exitCode() != 0) {
                throw new CommandExecutionException("Failed to unmask " + name + ": " + ExternalTool.complaint(outcome));
            }
        }
    }

    private SortedSet<String> allUnits() {
        SortedSet<String> names = UnitListing.units(successfulOutput(SystemctlCommand.listUnits()));
        UnitListing.unitFiles(successfulOutput(SystemctlCommand.listUnitFiles())).keySet().forEach(unit -> {
            String name = UnitListing.saltName(unit);
            if (name != null) {
                names.add(name);
            }
        });
        return names;
    }

    private String successfulOutput(List<String> argv) {
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
