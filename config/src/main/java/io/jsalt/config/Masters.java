package io.jsalt.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The masters a minion signs in to and how it moves between them, with Salt 3006's keys and defaults.
 *
 * @param list             {@code master}: one host, or a list (each {@code host}, {@code host:port},
 *                         {@code [v6]:port}); in the order written
 * @param type             {@code master_type}: {@code str} (the default) signs in to every master of the list and
 *                         answers each job to the master that sent it (Salt's hot/hot multi-master); {@code failover}
 *                         signs in to one at a time, the first that answers, and moves on when it goes away
 * @param aliveInterval    {@code master_alive_interval}: seconds between checks that the current master is still
 *                         there (its publish connection); 0 (Salt's default) or -1 checks never
 * @param failback         {@code master_failback}: with failover, go back to the first master of the list once it
 *                         answers again
 * @param failbackInterval {@code master_failback_interval}: seconds between pings of the first master while away
 *                         from it; 0 means {@code master_alive_interval}, as Salt resolves it
 * @param random           {@code random_master} (or Salt's deprecated {@code master_shuffle}): shuffle the list once at
 *                         start; with failover and failback, the first master stays first
 * @param retryDns         {@code retry_dns}: seconds between attempts to resolve a master's name that does not
 *                         resolve; 0 gives up at once. With failover, a name that does not resolve moves on to the
 *                         next master instead (Salt forces retry_dns to 0 there)
 * @param retryDnsCount    {@code retry_dns_count}: attempts before giving up; -1 (Salt's None, the default) is no limit
 */
public record Masters(List<MasterAddress> list, Type type, int aliveInterval, boolean failback, int failbackInterval,
        boolean random, double retryDns, int retryDnsCount) {
    private static final Logger LOG = LoggerFactory.getLogger(Masters.class);
    private static final int DAY = 86_400;

    /** {@code master_type}. Salt's {@code func}, {@code disable} and {@code distributed} are refused. */
    public enum Type {
        STR, FAILOVER;

        public String saltName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Masters {
        list = List.copyOf(Objects.requireNonNull(list, "list"));
        if (list.isEmpty()) {
            throw new IllegalArgumentException("no master");
        }
        Objects.requireNonNull(type, "type");
    }

    /** True when the minion signs in to every master of the list at once. */
    public boolean hotHot() {
        return type == Type.STR;
    }

    /** Seconds between failback pings, as Salt resolves 0. */
    public int effectiveFailbackInterval() {
        return failbackInterval > 0 ? failbackInterval : aliveInterval;
    }

    static Masters read(ConfigFile config, int defaultPort) {
        List<MasterAddress> list = addresses(config, defaultPort);
        String typeName = config.string("master_type", "str");
        Type type = switch (typeName) {
            case "str" -> Type.STR;
            case "failover" -> Type.FAILOVER;
            default -> throw config.refuse("master_type", "str or failover (jsalt has no func, disable or distributed)");
        };
        int alive = config.integer("master_alive_interval", 0, -1, DAY);
        boolean failback = config.bool("master_failback", false);
        int failbackInterval = config.integer("master_failback_interval", 0, 0, DAY);
        boolean shuffle = config.bool("master_shuffle", false);
        if (shuffle) {
            LOG.warn("{}: master_shuffle is deprecated in favour of random_master (as in Salt); taken as random_master", config.file());
        }
        boolean random = config.bool("random_master", false) || shuffle;
        double retryDns = config.number("retry_dns", 30, 0, DAY);
        int retryDnsCount = config.integer("retry_dns_count", -1, 0, 1_000_000); // absent or null: no limit
        if (type == Type.FAILOVER && alive <= 0) {
            LOG.warn("{}: master_type failover with master_alive_interval {}: once signed in, this minion does not notice"
                    + " that its master went away and never moves to the next one; set master_alive_interval (Salt's advice)",
                    config.file(), alive);
        }
        if (random && list.size() == 1) {
            LOG.warn("{}: random_master is true but only one master is listed; ignored", config.file());
        }
        return new Masters(list, type, alive, failback, failbackInterval, random, retryDns, retryDnsCount);
    }

    private static List<MasterAddress> addresses(ConfigFile config, int defaultPort) {
        String expected = "a host, host:port or [IPv6]:port, or a list of them";
        List<String> written;
        try {
            written = config.stringList("master");
        } catch (ConfigException e) {
            throw config.refuse("master", expected);
        }
        if (!config.has("master")) {
            written = List.of("salt");
        }
        if (written.isEmpty()) {
            throw config.refuse("master", expected + " (the list is empty)");
        }
        List<MasterAddress> list = new ArrayList<>();
        for (String text : written) {
            MasterAddress address = MasterAddress.parse(text, defaultPort);
            if (address == null) {
                throw config.refuse("master", expected);
            }
            if (list.contains(address)) {
                throw config.refuse("master", expected + ", each once (" + address + " is listed twice)");
            }
            list.add(address);
        }
        return list;
    }

    /** For messages: the addresses as written in the minion's logs. */
    public static String describe(Collection<MasterAddress> masters) {
        return masters.stream().map(MasterAddress::toString).toList().toString();
    }
}
