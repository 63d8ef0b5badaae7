package io.jsalt.modules.builtin;

import io.jsalt.modules.api.Arg;
import io.jsalt.modules.api.CommandExecutionException;
import io.jsalt.modules.api.ExecutionModule;
import io.jsalt.modules.api.SaltFunction;
import io.jsalt.modules.api.SaltModule;
import io.jsalt.modules.builtin.accounts.AccountDatabase;
import io.jsalt.modules.builtin.cmd.CommandOutcome;
import io.jsalt.modules.builtin.net.InterfaceTable;
import io.jsalt.modules.builtin.net.IpNetwork;
import io.jsalt.modules.builtin.net.RouteTable;
import io.jsalt.modules.builtin.net.SocketTable;
import io.jsalt.modules.builtin.system.ProcFile;
import io.jsalt.modules.builtin.system.SystemCommand;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Salt's {@code network} module on Linux: interfaces and addresses from the JDK, sockets and routes
 * from /proc/net, reachability with the JDK's sockets (and the system's ping for ICMP).
 */
@SaltModule(name = "network", doc = "Query and test the minion's network (Salt's network module).")
public final class NetworkModule implements ExecutionModule {

    /** Salt's sanitize_host: what a host name or address may contain before it reaches a command line. */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.:_\\-\\[\\]%]+");

    private final Path proc;

    public NetworkModule() {
        this(Path.of("/proc"));
    }

    /** For tests: another proc tree. */
    public NetworkModule(Path proc) {
        this.proc = proc;
    }

    @SaltFunction(doc = "Return a dictionary of information about all the interfaces on the minion: "
            + "{iface: {'hwaddr', 'up', 'inet': [{'address', 'netmask', 'broadcast', 'label'}], "
            + "'inet6': [{'address', 'prefixlen', 'scope'}]}}.\n\nCLI Example: salt '*' network.interfaces")
    public Map<String, Object> interfaces() {
        return InterfaceTable.read();
    }

    @SaltFunction(doc = "Return the sorted IPv4 addresses of the minion (of one interface when interface is "
            + "given), loopback only with include_loopback=True; cidr keeps those in a network.\n\n"
            + "CLI Example: salt '*' network.ip_addrs eth0 include_loopback=True")
    public List<String> ip_addrs(@Arg(value = "interface", defaultValue = Arg.NULL) String iface,
                                 @Arg(value = "include_loopback", defaultValue = "false") boolean includeLoopback,
                                 @Arg(value = "cidr", defaultValue = Arg.NULL) String cidr) {
        return Addresses.of(InterfaceTable.read(), "inet", iface, includeLoopback, cidr);
    }

    @SaltFunction(doc = "Return the sorted IPv6 addresses of the minion; arguments as network.ip_addrs.\n\n"
            + "CLI Example: salt '*' network.ip_addrs6")
    public List<String> ip_addrs6(@Arg(value = "interface", defaultValue = Arg.NULL) String iface,
                                  @Arg(value = "include_loopback", defaultValue = "false") boolean includeLoopback,
                                  @Arg(value = "cidr", defaultValue = Arg.NULL) String cidr) {
        return Addresses.of(InterfaceTable.read(), "inet6", iface, includeLoopback, cidr);
    }

    @SaltFunction(doc = "Return the hardware address (MAC) of an interface.\n\nCLI Example: salt '*' network.hw_addr eth0")
    public String hw_addr(@Arg("iface") String iface) {
        Map<String, Object> interfaces = InterfaceTable.read();
        Object data = interfaces.get(iface);
        if (!(data instanceof Map<?, ?> map) || map.get("hwaddr") == null) {
            // Salt answers with this text rather than an error
            return "Interface \"" + iface + "\" not in available interfaces: \""
                    + String.join("\", \"", interfaces.keySet()) + "\"";
        }
        return (String) map.get("hwaddr");
    }

    @SaltFunction(doc = "Return the hostname of the minion (the kernel's, as socket.gethostname).\n\n"
            + "CLI Example: salt '*' network.get_hostname")
    public String get_hostname() {
        return ProcFile.read(proc.resolve("sys/kernel/hostname")).strip();
    }

    @SaltFunction(doc = "Return the fully qualified domain name of the minion, or its hostname when it has "
            + "none.\n\nCLI Example: salt '*' network.get_fqdn")
    public String get_fqdn() {
        String hostname = get_hostname();
        try {
            String canonical = InetAddress.getByName(hostname).getCanonicalHostName();
            // the JDK answers with the address itself when no name is found
            return canonical.contains(".") && !Character.isDigit(canonical.charAt(canonical.length() - 1))
                    ? canonical : hostname;
        } catch (UnknownHostException | SecurityException e) {
            return hostname;
        }
    }

    @SaltFunction(doc = "Ping a host four times with the system's ping and return its output, or True/False "
            + "with return_boolean=True. timeout is ping's -W.\n\nCLI Example: salt '*' network.ping archlinux.org")
    public Object ping(@Arg("host") String host,
                       @Arg(value = "timeout", defaultValue = Arg.NULL) Integer timeout,
                       @Arg(value = "return_boolean", defaultValue = "false") boolean returnBoolean) {
        List<String> argv = new ArrayList<>(List.of("ping", "-c", "4"));
        if (timeout != null) {
            argv.addAll(List.of("-W", Integer.toString(timeout)));
        }
        argv.add(sanitizeHost(host));
        CommandOutcome outcome = SystemCommand.run(argv, Duration.ofSeconds(timeout == null ? 60 : 4L * timeout + 10));
        if (returnBoolean) {
            return outcome.exitCode() == 0;
        }
        String output = outcome.stdout().strip();
        return outcome.stderr().isBlank() ? output : (output + "\n" + outcome.stderr().strip()).strip();
    }

    @SaltFunction(doc = "Test connectivity to a host on a port: {'result': bool, 'comment': ...}. proto is tcp "
            + "or udp, timeout in seconds, family ipv4 or ipv6.\n\nCLI Example: salt '*' network.connect archlinux.org 80")
    public Map<String, Object> connect(@Arg("host") String host,
                                       @Arg(value = "port", defaultValue = Arg.NULL) Integer port,
                                       @Arg(value = "proto", defaultValue = "tcp") String proto,
                                       @Arg(value = "timeout", defaultValue = "5") double timeout,
                                       @Arg(value = "family", defaultValue = Arg.NULL) String family) {
        return Reachability.connect(host, port, proto, timeout, family);
    }

    @SaltFunction(doc = "Return information on open ports and states: a list of {'proto', 'recv-q', 'send-q', "
            + "'local-address', 'remote-address', 'state', 'user', 'inode', 'program'}.\n\n"
            + "CLI Example: salt '*' network.netstat")
    public List<Map<String, Object>> netstat() {
        Map<Long, String> names = new HashMap<>();
        try {
            AccountDatabase.system().users().forEach(user -> names.putIfAbsent(user.uid(), user.name()));
        } catch (CommandExecutionException e) {
            // without /etc/passwd netstat prints uids; so do we
        }
        return new SocketTable(proc).read(uid -> names.getOrDefault(uid, Long.toString(uid)));
    }

    @SaltFunction(doc = "Return the routing table: a list of {'addr_family', 'destination', 'gateway', 'netmask', "
            + "'flags', 'interface'}; family inet or inet6 keeps one.\n\nCLI Example: salt '*' network.routes inet")
    public List<Map<String, Object>> routes(@Arg(value = "family", defaultValue = Arg.NULL) String family) {
        if (family != null && !family.equals("inet") && !family.equals("inet6")) {
            throw new CommandExecutionException("Invalid address family " + family);
        }
        RouteTable table = new RouteTable(proc);
        List<Map<String, Object>> routes = new ArrayList<>();
        if (family == null || family.equals("inet")) {
            routes.addAll(table.inet());
        }
        if (family == null || family.equals("inet6")) {
            routes.addAll(table.inet6());
        }
        return routes;
    }

    @SaltFunction(doc = "Return the IPv4 subnets the minion is on (loopback left out), sorted; interfaces "
            + "limits it to some.\n\nCLI Example: salt '*' network.subnets interfaces=eth1")
    public List<String> subnets(@Arg(value = "interfaces", defaultValue = Arg.NULL) Object interfaces) {
        return Addresses.subnets(InterfaceTable.read(), "inet", interfaces);
    }

    @SaltFunction(doc = "Return the IPv6 subnets the minion is on (loopback left out), sorted.\n\n"
            + "CLI Example: salt '*' network.subnets6")
    public List<String> subnets6() {
        return Addresses.subnets(InterfaceTable.read(), "inet6", null);
    }

    @SaltFunction(doc = "Return True if one of the minion's addresses (loopback left out) is in the network "
            + "cidr.\n\nCLI Example: salt '*' network.in_subnet 10.0.0.0/16")
    public boolean in_subnet(@Arg("cidr") String cidr) {
        IpNetwork network;
        try {
            network = IpNetwork.parse(cidr);
        } catch (IllegalArgumentException e) {
            throw new CommandExecutionException("Invalid CIDR '" + cidr + "': " + e.getMessage());
        }
        Map<String, Object> interfaces = InterfaceTable.read();
        List<String> addresses = new ArrayList<>(Addresses.of(interfaces, "inet", null, false, null));
        addresses.addAll(Addresses.of(interfaces, "inet6", null, false, null));
        return addresses.stream().anyMatch(address -> network.contains(IpNetwork.parseAddress(address)));
    }

    static String sanitizeHost(String host) {
        if (host == null || !HOST.matcher(host).matches() || host.startsWith("-")) {
            throw new CommandExecutionException("Invalid host '" + host + "'");
        }
        return host;
    }
}
