package io.jsalt.minion.masters;

import io.jsalt.config.MasterAddress;
import io.jsalt.config.MinionConfig;
import io.jsalt.crypto.CryptoException;
import io.jsalt.minion.auth.MasterKeyPin;
import io.jsalt.minion.channel.MasterRequests;
import io.jsalt.minion.channel.NotSignedInException;
import io.jsalt.minion.channel.UnexpectedReplyException;
import io.jsalt.minion.jobs.ExecutorShutdown;
import io.jsalt.minion.returns.ReturnRoutes;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.WireException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The masters of one minion ({@code master}, {@code master_type}): which links exist, and requests and returns
 * routed over them. Requests that need no particular master (events, file server, pillar) go to the first
 * master that answers, connected ones first; a job's return goes to the master it came from first
 * ({@link ReturnRoutes}). {@link HotMasters} signs in to all at once, {@link FailoverMasters} to one at a time.
 * Decisions (name resolution retries, failover, failback) run on one control thread of its own.
 */
public abstract sealed class MinionMasters implements ReturnRoutes, MasterRequests, AutoCloseable
        permits HotMasters, FailoverMasters {
    private static final Logger log = LoggerFactory.getLogger(MinionMasters.class);

    /** The reason {@link Listener#noMaster} gives when every master rejected this minion's key. */
    public static final String REJECTED = "rejected";
    /** The start of the reason {@link Listener#noMaster} gives when no master's name resolves. */
    public static final String NO_MASTER = "no master";

    /** What the minion hears beyond each link's own events. */
    public interface Listener extends MasterLink.Listener {
        /** No master can be used any more: {@link #REJECTED}, or {@link #NO_MASTER} and which. */
        void noMaster(String reason);
    }

    protected final MinionConfig config;
    protected final Listener listener;
    private final Transport transport;
    private final KeyPair keyPair;
    private final MasterKeyPin pin;
    private final ScheduledThreadPoolExecutor control;
    protected volatile boolean closed;

    protected MinionMasters(MinionConfig config, Transport transport, KeyPair keyPair, Listener listener) {
        this.config = config;
        this.transport = transport;
        this.keyPair = keyPair;
        this.listener = listener;
        this.pin = new MasterKeyPin(config.pkiDir(), config.masterFinger());
        this.control = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "jsalt-minion-" + config.id() + "-masters");
            t.setDaemon(true);
            return t;
        });
        control.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        control.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    /** The strategy {@code master_type} names, not started. */
    public static MinionMasters of(MinionConfig config, Transport transport, KeyPair keyPair, Listener listener) {
        return config.masters().hotHot()
                ? new HotMasters(config, transport, keyPair, listener)
                : new FailoverMasters(config, transport, keyPair, listener);
    }

    /** Begins signing in. */
    public abstract void start();

    /** The links that exist now: every master's (hot/hot), or the current one (failover). */
    public abstract List<MasterLink> links();

    protected MasterLink newLink(MasterAddress address, MasterLink.Listener linkListener) {
        return new MasterLink(config, address, transport, keyPair, pin, linkListener);
    }

    /** The master key pin the links share. */
    protected MasterKeyPin pin() {
        return pin;
    }

    protected Transport transport() {
        return transport;
    }

    /** Runs on the control thread; false when closing. */
    protected boolean onControl(Runnable task, long delayMs) {
        if (closed) {
            return false;
        }
        try {
            control.schedule(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    log.warn("{}: choosing a master: {}", config.id(), e.toString());
                }
            }, delayMs, TimeUnit.MILLISECONDS);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Runs {@code task} every {@code seconds} on the control thread. */
    protected void everySeconds(int seconds, Runnable task) {
        if (seconds <= 0 || closed) {
            return;
        }
        try {
            control.scheduleWithFixedDelay(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    log.warn("{}: checking the masters: {}", config.id(), e.toString());
                }
            }, seconds, seconds, TimeUnit.SECONDS);
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    /** True when the host of {@code address} resolves now (an address literal always does). */
    protected static boolean resolves(MasterAddress address) {
        try {
            InetAddress.getAllByName(address.host());
            return true;
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }

    /**
     * The masters to try, in order: connected ones first, the job's own master first among them; then the ones
     * signed in whose publish connection dropped (still worth a try, last). Not signed in: not tried.
     */
    @Override
    public List<Route> candidates(Object origin) {
        List<MasterLink> links = links();
        List<Route> routes = new ArrayList<>(links.size());
        for (boolean connected : new boolean[] {true, false}) {
            for (MasterLink link : links) {
                if (link == origin && link.state() == MasterLink.State.SIGNED_IN && link.connected() == connected) {
                    routes.add(new Route(link, link.channel()));
                }
            }
            for (MasterLink link : links) {
                if (link != origin && link.state() == MasterLink.State.SIGNED_IN && link.connected() == connected) {
                    routes.add(new Route(link, link.channel()));
                }
            }
        }
        return routes;
    }

    @Override
    public boolean isMaster(Object origin) {
        return origin instanceof MasterLink link && links().contains(link);
    }

    @Override
    public Object send(Map<String, Object> load) {
        return firstAnswer(channel -> channel.send(load));
    }

    @Override
    public Object sendForPrivateReply(Map<String, Object> load, String dictKey, PrivateKey minionKey) {
        return firstAnswer(channel -> channel.sendForPrivateReply(load, dictKey, minionKey));
    }

    /**
     * The answer of the first master that gives one and does not refuse. A refusal ({@code False}, the answer a
     * master gives a request it will not serve, or a private reply refused) moves on to the next master as a
     * timeout does: under Salt each master of a hot/hot minion is asked by a minion instance of its own, and a
     * failover minion's {@code eval_master} tries the next master when one turns it away, so one master's
     * refusal never keeps another from serving. When every master refuses, the refusal is the answer; when none
     * answers, the last failure.
     */
    private Object firstAnswer(Function<MasterRequests, Object> request) {
        RuntimeException failure = null;
        UnexpectedReplyException refusedPrivately = null;
        boolean refused = false;
        for (Route route : candidates(null)) {
            try {
                Object answer = request.apply(route.channel());
                if (!Boolean.FALSE.equals(answer)) {
                    return answer;
                }
                refused = true;
                log.debug("{}: {} refused the request; asking the next master", config.id(), route.key());
            } catch (UnexpectedReplyException e) {
                refusedPrivately = e;
                log.debug("{}: {} refused the request ({}); asking the next master", config.id(), route.key(), e.getMessage());
            } catch (TransportException | NotSignedInException | CryptoException | WireException e) {
                failure = e;
            }
        }
        if (refusedPrivately != null) {
            throw refusedPrivately;
        }
        if (refused) {
            return Boolean.FALSE;
        }
        throw failure != null ? failure : new NotSignedInException();
    }

    @Override
    public void close() {
        closed = true;
        ExecutorShutdown.gracefully(control, Duration.ofSeconds(config.authTimeout() + 2L), config.id() + " masters");
        for (MasterLink link : links()) {
            link.close();
        }
    }
}
