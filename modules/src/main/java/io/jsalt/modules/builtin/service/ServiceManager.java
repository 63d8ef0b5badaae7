package io.jsalt.modules.builtin.service;

import java.util.SortedSet;

/**
 * One way of running the host's services: {@link SystemdServices} where systemd is PID 1,
 * {@link SysvServices} (the /etc/init.d scripts and /etc/rc?.d links) elsewhere. The {@code service}
 * module picks one per call, so a host that boots differently next time is served right.
 */
public interface ServiceManager {

    /** What systemd alone knows: return early without waiting, and masking. The SysV manager ignores them. */
    record Options(boolean noBlock, boolean unmask, boolean unmaskRuntime) {
        public static final Options NONE = new Options(false, false, false);
    }

    /** Whether the service runs now. */
    boolean running(String name);

    /** start, stop, restart, reload or force-reload; false (or an error with the tool's words) when it failed. */
    boolean control(String action, String name, Options options);

    boolean enable(String name, Options options);

    boolean disable(String name, Options options);

    boolean isEnabled(String name);

    boolean isDisabled(String name);

    boolean available(String name);

    /** Every service this manager knows, by Salt's name for it. */
    SortedSet<String> all();

    /** The services started at boot. */
    SortedSet<String> enabled();

    /** The services installed but not started at boot. */
    SortedSet<String> disabled();
}
