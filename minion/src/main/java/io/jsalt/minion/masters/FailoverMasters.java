package io.jsalt.minion.masters;

import io.jsalt.config.MasterAddress;
import io.jsalt.config.Masters;
import io.jsalt.config.MinionConfig;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.message.RequestEnvelope;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code master_type: failover}, as Salt 3006 does it: one master at a time, the first of the list that lets
 * this minion sign in (a master that does not answer, or that this minion refuses, is skipped; a key pending
 * there waits, as Salt does). Every {@code master_alive_interval} seconds the current master is checked: once
 * its publish connection is down, the minion moves it to the end of the list and signs in to the next one.
 * With {@code master_failback}, the first master of the list is pinged (Salt's clear {@code ping}) every
 * {@code master_failback_interval} seconds while the minion is elsewhere, and the minion goes back to it once
 * it answers. {@code random_master} shuffles the list once at start (all but the first, with failback). A name
 * that does not resolve moves on to the next master (Salt sets retry_dns to 0 under failover). After a round
 * of the whole list without a sign-in, the next round starts after {@code acceptance_wait_time}. Every move is
 * decided on the control thread; the link being left is closed, and a new one made for the next master.
 */
final class FailoverMasters extends MinionMasters {
    private static final Logger log = LoggerFactory.getLogger(FailoverMasters.class);

    /** The list as configured (after random_master): failback returns to its first. */
    private final List<MasterAddress> original;
    /** The working order: a master that went away is moved to its end. Control thread only. */
    private List<MasterAddress> order;
    /** Index in {@link #order} of the master tried or used now. Control thread only. */
    private int index;
    /** Masters tried in this round without a sign-in. Control thread only. */
    private int triedInRound;
    private volatile MasterLink active;
    private volatile Instant activeSince = Instant.MIN;

    FailoverMasters(MinionConfig config, Transport transport, KeyPair keyPair, Listener listener) {
        super(config, transport, keyPair, listener);
        List<MasterAddress> list = new ArrayList<>(config.masters().list());
        if (config.masters().random() && list.size() > 1) {
            if (config.masters().failback()) {
                Collections.shuffle(list.subList(1, list.size())); // the first stays the one to fail back to
            } else {
                Collections.shuffle(list);
            }
        }
        this.original = List.copyOf(list);
        this.order = new ArrayList<>(list);
    }

    @Override
    public void start() {
        log.info("{}: failover between masters {}; checking the current one every {} s", config.id(),
                Masters.describe(original), config.masters().aliveInterval());
        onControl(() -> activate(0), 0);
        everySeconds(config.masters().aliveInterval(), this::checkAlive);
        if (config.masters().failback()) {
            everySeconds(config.masters().effectiveFailbackInterval(), this::checkFailback);
        }
    }

    @Override
    public List<MasterLink> links() {
        MasterLink link = active;
        return link == null ? List.of() : List.of(link);
    }

    /** The master used (or being signed in to) now; null between two. */
    MasterAddress current() {
        MasterLink link = active;
        return link == null ? null : link.address();
    }

    /** On the control thread: leaves the current link (if any) and signs in to {@code order[i]}. */
    private void activate(int i) {
        if (closed) {
            return;
        }
        leave();
        index = i % order.size();
        MasterAddress address = order.get(index);
        if (!resolves(address)) {
            log.error("{}: master hostname {} not found; trying the next master", config.id(), address.host());
            next();
            return;
        }
        log.info("{}: signing in to master {} (failover)", config.id(), address);
        MasterLink link = newLink(address, new LinkEvents());
        active = link;
        activeSince = Instant.now();
        link.start(false);
    }

    /** On the control thread: the current master did not let this minion in; the next one is tried. */
    private void next() {
        triedInRound++;
        if (triedInRound >= order.size()) {
            triedInRound = 0;
            long waitMs = Math.round(config.acceptanceWaitTime() * 1000);
            log.warn("{}: no master of {} could be signed in to; trying again in {} ms", config.id(), Masters.describe(order), waitMs);
            int nextIndex = index + 1;
            leave();
            onControl(() -> activate(nextIndex), waitMs);
            return;
        }
        activate(index + 1);
    }

    private void leave() {
        MasterLink link = active;
        active = null;
        if (link != null) {
            link.close();
        }
    }

    /** Every master_alive_interval: a master whose publish connection is down is left for the next. */
    private void checkAlive() {
        MasterLink link = active;
        if (link == null || link.state() != MasterLink.State.SIGNED_IN || !link.publisherLost()) {
            return;
        }
        MasterAddress failed = link.address();
        log.warn("{}: master {} went away (its publish connection is down); failing over", config.id(), failed);
        // Salt's eval_master(failed=True): the failed master goes to the end of the list
        List<MasterAddress> moved = new ArrayList<>(order);
        moved.remove(failed);
        moved.add(failed);
        order = moved;
        triedInRound = 0;
        activate(0);
    }

    /** Every master_failback_interval while away from the first master: back to it once it answers a ping. */
    private void checkFailback() {
        MasterLink link = active;
        MasterAddress first = original.get(0);
        if (link == null || link.state() != MasterLink.State.SIGNED_IN || link.address().equals(first)) {
            return;
        }
        if (!resolves(first) || !answersPing(first)) {
            return;
        }
        log.info("{}: master {} answers again; failing back to it", config.id(), first);
        order = new ArrayList<>(original);
        triedInRound = 0;
        activate(0);
    }

    /** Salt's status.ping_master: a clear {@code ping} on the request port, answered within auth_timeout. */
    private boolean answersPing(MasterAddress address) {
        RequestClient client = transport().connectRequestClient(address.host(), address.port(), config.frameLimits().maxReplySize());
        try {
            client.request(RequestEnvelope.clear(Map.of("cmd", "ping")).encode(), Duration.ofSeconds(config.authTimeout()));
            return true;
        } catch (TransportException e) {
            return false;
        } finally {
            client.close();
        }
    }

    /** The current link's events; a link left behind is not listened to any more. */
    private final class LinkEvents implements MasterLink.Listener {
        @Override
        public void signedIn(MasterLink link) {
            if (link == active) {
                onControl(() -> triedInRound = 0, 0);
                listener.signedIn(link);
            }
        }

        @Override
        public void publication(MasterLink link, byte[] frame) {
            if (link == active) {
                listener.publication(link, frame);
            }
        }

        @Override
        public void notSignedIn(MasterLink link, SignInResult result) {
            if (link != active) {
                return;
            }
            listener.notSignedIn(link, result);
            boolean waitHere = result instanceof SignInResult.Pending
                    || (result instanceof SignInResult.Rejected && config.rejectedRetry());
            if (!waitHere) {
                log.warn("{}: master {} did not let this minion in ({}); trying the next master", config.id(), link.address(),
                        why(result));
                onControl(() -> {
                    if (link == active) {
                        next();
                    }
                }, 0);
            }
        }
    }

    private static String why(SignInResult result) {
        if (result instanceof SignInResult.Failed f) {
            return "no answer: " + io.jsalt.transport.codec.Printable.of(f.reason(), io.jsalt.transport.codec.Printable.LONG);
        }
        if (result instanceof SignInResult.MasterRefused m) {
            return "refused by this minion: " + io.jsalt.transport.codec.Printable.of(m.reason(), io.jsalt.transport.codec.Printable.LONG);
        }
        return result.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public String toString() {
        return "failover " + Masters.describe(original) + ", now " + current() + " since " + activeSince;
    }
}
