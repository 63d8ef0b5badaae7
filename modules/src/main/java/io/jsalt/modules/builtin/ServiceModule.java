package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.service.ServiceManager;
import io.jsalt.modules.builtin.service.ServiceManager.Options;
import io.jsalt.modules.builtin.service.SystemdServices;
import io.jsalt.modules.builtin.service.Systemd;
import io.jsalt.modules.builtin.service.SysvServices;
import io.jsalt.modules.builtin.system.ProcessInfo;
import io.jsalt.modules.builtin.system.ProcessTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Salt's {@code service} module. The provider is chosen on every call, as Salt's loader chooses between
 * systemd_service and debian_service: systemd ({@code systemctl}) when the host was booted with it, else the
 * SysV init scripts in /etc/init.d with their /etc/rc?.d links (containers, older hosts). Each provider keeps its
 * Salt module's return values: systemd raises with systemctl's message when a start fails, SysV answers False.
 */
@SaltModule(name = "service", doc = "Manage services: systemd where it runs (Salt's systemd_service), else the SysV "
        + "init scripts (Salt's debian_service).")
public final class ServiceModule implements ExecutionModule {

    private final Systemd systemd;
    private final ServiceManager systemdServices = new SystemdServices();
    private final ServiceManager sysvServices;
    private final Path proc;

    public ServiceModule() {
        this(Systemd.DEFAULT_MARKER, Path.of("/"), Path.of("/proc"));
    }

    /**
     * For tests: systemd runs when {@code marker} is a folder (/run/systemd/system on a host); the SysV scripts and
     * links are under {@code sysvRoot}/etc; processes for {@code sig} are read from {@code proc}.
     */
    public ServiceModule(Path marker, Path sysvRoot, Path proc) {
        this.systemd = new Systemd(marker);
        this.sysvServices = new SysvServices(sysvRoot);
        this.proc = proc;
    }

    private ServiceManager services() {
        return systemd.booted() ? systemdServices : sysvServices;
    }

    @SaltFunction(doc = "Return True if the service is running (systemctl is-active, or the init script's status). A "
            + "name with glob characters returns {name: bool} for every matching service. Under SysV, sig (a regular "
            + "expression) looks for a matching process instead, as Salt's debian_service does.\n\n"
            + "CLI Example: salt '*' service.status <service name> [service signature]")
    public Object status(@Arg("name") String name, @Arg(value = "sig", defaultValue = Arg.NULL) String sig,
                         @Arg(value = "wait", defaultValue = "3") int wait) {
        ServiceManager services = services();
        if (sig != null && !sig.isEmpty() && services == sysvServices) {
            return processMatches(sig);
        }
        if (!Glob.isGlob(name)) {
            return services.running(name);
        }
        Glob glob = Glob.of(name);
        Map<String, Object> states = new LinkedHashMap<>();
        for (String service : services.all()) {
            if (glob.matches(service)) {
                states.put(service, services.running(service));
            }
        }
        return states;
    }

    @SaltFunction(doc = "Start the service; unmask=True (or unmask_runtime=True) unmasks it first (systemd). Returns "
            + "True; on failure an error with systemctl's message (systemd) or False (SysV).\n\n"
            + "CLI Example: salt '*' service.start <service name>")
    public boolean start(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock,
                         @Arg(value = "unmask", defaultValue = "false") boolean unmask,
                         @Arg(value = "unmask_runtime", defaultValue = "false") boolean unmaskRuntime) {
        return services().control("start", name, new Options(noBlock, unmask, unmaskRuntime));
    }

    @SaltFunction(doc = "Stop the service. Returns True; on failure an error with systemctl's message (systemd) or "
            + "False (SysV).\n\nCLI Example: salt '*' service.stop <service name>")
    public boolean stop(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock) {
        return services().control("stop", name, new Options(noBlock, false, false));
    }

    @SaltFunction(doc = "Restart the service. Returns True; on failure an error with systemctl's message (systemd) or "
            + "False (SysV).\n\nCLI Example: salt '*' service.restart <service name>")
    public boolean restart(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock,
                           @Arg(value = "unmask", defaultValue = "false") boolean unmask,
                           @Arg(value = "unmask_runtime", defaultValue = "false") boolean unmaskRuntime) {
        return services().control("restart", name, new Options(noBlock, unmask, unmaskRuntime));
    }

    @SaltFunction(doc = "Reload the service's configuration. Returns True; on failure an error with systemctl's "
            + "message (systemd) or False (SysV).\n\nCLI Example: salt '*' service.reload <service name>")
    public boolean reload(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock,
                          @Arg(value = "unmask", defaultValue = "false") boolean unmask,
                          @Arg(value = "unmask_runtime", defaultValue = "false") boolean unmaskRuntime) {
        return services().control("reload", name, new Options(noBlock, unmask, unmaskRuntime));
    }

    @SaltFunction(doc = "Force-reload the service (reload, or restart where it cannot reload). Returns True; on "
            + "failure an error (systemd) or False (SysV).\n\nCLI Example: salt '*' service.force_reload <service name>")
    public boolean force_reload(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock,
                                @Arg(value = "unmask", defaultValue = "false") boolean unmask,
                                @Arg(value = "unmask_runtime", defaultValue = "false") boolean unmaskRuntime) {
        return services().control("force-reload", name, new Options(noBlock, unmask, unmaskRuntime));
    }

    @SaltFunction(doc = "Enable the service at boot (systemctl enable; under SysV its /etc/rc?.d links, made from the "
            + "script's LSB header when missing, become start links). Returns True if that worked.\n\n"
            + "CLI Example: salt '*' service.enable <service name>")
    public boolean enable(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock,
                          @Arg(value = "unmask", defaultValue = "false") boolean unmask,
                          @Arg(value = "unmask_runtime", defaultValue = "false") boolean unmaskRuntime) {
        return services().enable(name, new Options(noBlock, unmask, unmaskRuntime));
    }

    @SaltFunction(doc = "Disable the service at boot (systemctl disable; under SysV its start links become stop "
            + "links). Returns True if that worked.\n\nCLI Example: salt '*' service.disable <service name>")
    public boolean disable(@Arg("name") String name, @Arg(value = "no_block", defaultValue = "false") boolean noBlock) {
        return services().disable(name, new Options(noBlock, false, false));
    }

    @SaltFunction(doc = "Return True if the service is enabled at boot.\n\nCLI Example: salt '*' service.enabled <service name>")
    public boolean enabled(@Arg("name") String name) {
        return services().isEnabled(name);
    }

    @SaltFunction(doc = "Return True if the service is not enabled at boot (under SysV: installed and not enabled).\n\n"
            + "CLI Example: salt '*' service.disabled <service name>")
    public boolean disabled(@Arg("name") String name) {
        return services().isDisabled(name);
    }

    @SaltFunction(doc = "Return True if the named service (or other unit) is known.\n\n"
            + "CLI Example: salt '*' service.available sshd")
    public boolean available(@Arg("name") String name) {
        return services().available(name);
    }

    @SaltFunction(doc = "The inverse of service.available.\n\nCLI Example: salt '*' service.missing sshd")
    public boolean missing(@Arg("name") String name) {
        return !services().available(name);
    }

    @SaltFunction(doc = "Return a sorted list of all services (under systemd also other units; services by their bare "
            + "name).\n\nCLI Example: salt '*' service.get_all")
    public List<String> get_all() {
        return new ArrayList<>(services().all());
    }

    @SaltFunction(doc = "Return a sorted list of the services enabled at boot.\n\nCLI Example: salt '*' service.get_enabled")
    public List<String> get_enabled() {
        return new ArrayList<>(services().enabled());
    }

    @SaltFunction(doc = "Return a sorted list of the services installed but not enabled at boot.\n\n"
            + "CLI Example: salt '*' service.get_disabled")
    public List<String> get_disabled() {
        return new ArrayList<>(services().disabled());
    }

    /** Salt's {@code bool(status.pid(sig))}: whether a process's command line matches the regular expression. */
    private boolean processMatches(String sig) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(sig);
        } catch (PatternSyntaxException e) {
            throw new CommandExecutionException("Invalid regular expression '" + sig + "': " + e.getDescription());
        }
        long self = ProcessHandle.current().pid();
        for (ProcessInfo process : new ProcessTable(proc).all()) {
            if (process.pid() != self && pattern.matcher(process.commandText()).find()) {
                return true;
            }
        }
        return false;
    }
}
