package io.jsalt.modules.builtin.service;

import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.builtin.ExternalTool;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Services as SysV init scripts, for hosts and containers where systemd is not PID 1, with the semantics of Salt's
 * debian_service module: {@code /etc/init.d/<name> start|stop|restart|reload|force-reload|status} (run as the
 * {@code service} command runs it, from {@code /} with a clean environment), True or False from its exit code; the
 * services are the scripts in /etc/init.d, and those enabled have a start link in /etc/rcS.d or in the folder of
 * the current runlevel ({@link RcLinks}). Everything lives under a root folder, {@code /} on a real host.
 */
public final class SysvServices implements ServiceManager {

    private static final Logger LOG = LoggerFactory.getLogger(SysvServices.class);
    // an init script may wait for its daemon; a job's own timeout cuts it shorter
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    // a file name in /etc/init.d: no '/', and nothing a script or update-rc.d could read as an option
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_@+:][A-Za-z0-9_.@+:-]*");
    private static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    private final Path initd;
    private final RcLinks links;
    private final Supplier<String> runlevel;

    /** The scripts of {@code root}/etc/init.d; the runlevel as the {@code runlevel} command says. */
    public SysvServices(Path root) {
        this(root, Runlevel::current);
    }

    SysvServices(Path root, Supplier<String> runlevel) {
        this.initd = root.resolve("etc/init.d");
        this.links = new RcLinks(root);
        this.runlevel = runlevel;
    }

    @Override
    public boolean running(String name) {
        Path script = initd.resolve(checked(name));
        return Files.isExecutable(script) && run(script, "status").exitCode() == 0;
    }

    @Override
    public boolean control(String action, String name, Options options) {
        CommandOutcome outcome = run(installed(name), action);
        if (outcome.exitCode() != 0) {
            LOG.info("service {} {} failed: {}", name, action, ExternalTool.complaint(outcome));
        }
        return outcome.exitCode() == 0;
    }

    @Override
    public boolean enable(String name, Options options) {
        InitScriptHeader header = InitScriptHeader.read(installed(name));
        links.makeDefaults(name, header);
        links.toggle(name, header.defaultStart(), true);
        return true;
    }

    @Override
    public boolean disable(String name, Options options) {
        links.toggle(name, InitScriptHeader.read(installed(name)).defaultStart(), false);
        return true;
    }

    @Override
    public boolean isEnabled(String name) {
        return enabled().contains(checked(name));
    }

    @Override
    public boolean isDisabled(String name) {
        return all().contains(checked(name)) && !isEnabled(name);
    }

    @Override
    public boolean available(String name) {
        return all().contains(checked(name));
    }

    /** The scripts in init.d (but README, as Salt) and every service with a start link. */
    @Override
    public SortedSet<String> all() {
        SortedSet<String> names = enabled();
        if (!Files.isDirectory(initd)) {
            return names;
        }
        try (DirectoryStream<Path> scripts = Files.newDirectoryStream(initd)) {
            for (Path script : scripts) {
                String name = script.getFileName().toString();
                if (!name.startsWith(".") && !name.equals("README")) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new CommandExecutionException("cannot list " + initd + ": " + e.getMessage());
        }
        return names;
    }

    @Override
    public SortedSet<String> enabled() {
        return links.startedAt(runlevel.get());
    }

    /** As Salt's debian_service: every service without a start link. */
    @Override
    public SortedSet<String> disabled() {
        SortedSet<String> disabled = all();
        disabled.removeAll(enabled());
        return disabled;
    }

    /** The service's script, which must exist and be executable. */
    private Path installed(String name) {
        Path script = initd.resolve(checked(name));
        if (!Files.isRegularFile(script) || !Files.isExecutable(script)) {
            throw new CommandExecutionException("Service '" + name + "' is not available: no executable " + script);
        }
        return script;
    }

    static String checked(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new CommandExecutionException("Invalid service name '" + name + "'");
        }
        return name;
    }

    private static CommandOutcome run(Path script, String action) {
        // as /usr/sbin/service: env -i with the locale, PATH and TERM, so the minion's variables do not leak in
        Map<String, String> env = new LinkedHashMap<>();
        for (String variable : List.of("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TERM")) {
            String value = System.getenv(variable);
            if (value != null) {
                env.put(variable, value);
            }
        }
        env.put("PATH", PATH);
        return ExternalTool.run(List.of(script.toString(), action), env, TIMEOUT, false);
    }
}
