package io.jsalt.minion.masters;

import io.jsalt.config.MasterAddress;
import io.jsalt.config.Masters;
import io.jsalt.config.MinionConfig;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.transport.Transport;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code master_type: str} (the default): a link to every master of the list, each signing in and retrying on
 * its own, as Salt's hot/hot multi-master runs one minion per master. Every master's jobs are taken, each
 * answered to the master that sent it; one master away costs nothing but its own jobs. A master whose name does
 * not resolve is tried again every {@code retry_dns} seconds ({@code retry_dns_count} times); with 0, or once
 * the count is spent, it is given up, and when every master is given up or has rejected this minion's key, the
 * minion stops (Salt exits).
 */
final class HotMasters extends MinionMasters {
    private static final Logger log = LoggerFactory.getLogger(HotMasters.class);

    private final List<MasterLink> links = new CopyOnWriteArrayList<>();
    private final Set<MasterAddress> givenUp = ConcurrentHashMap.newKeySet();
    private final Set<MasterAddress> rejectedBy = ConcurrentHashMap.newKeySet();
    private final MasterLink.Listener linkListener;

    HotMasters(MinionConfig config, Transport transport, KeyPair keyPair, Listener listener) {
        super(config, transport, keyPair, listener);
        this.linkListener = new MasterLink.Listener() {
            @Override
            public void signedIn(MasterLink link) {
                listener.signedIn(link);
            }

            @Override
            public void publication(MasterLink link, byte[] frame) {
                listener.publication(link, frame);
            }

            @Override
            public void notSignedIn(MasterLink link, SignInResult result) {
                listener.notSignedIn(link, result);
                if (result instanceof SignInResult.Rejected && !config.rejectedRetry()) {
                    rejectedBy.add(link.address());
                    giveUp(link.address(), "it rejected this minion's key");
                }
            }
        };
    }

    @Override
    public void start() {
        List<MasterAddress> order = new ArrayList<>(config.masters().list());
        if (config.masters().random()) {
            Collections.shuffle(order);
        }
        if (order.size() > 1) {
            log.info("{}: signing in to every master of {} (master_type str)", config.id(), Masters.describe(order));
        }
        for (MasterAddress address : order) {
            onControl(() -> connect(address, 0), 0);
        }
    }

    private void connect(MasterAddress address, int failedResolutions) {
        if (closed) {
            return;
        }
        if (!resolves(address)) {
            Masters m = config.masters();
            int tries = failedResolutions + 1;
            if (m.retryDns() <= 0 || (m.retryDnsCount() >= 0 && tries > m.retryDnsCount())) {
                giveUp(address, "its name does not resolve");
                return;
            }
            log.error("{}: master hostname {} not found; retrying in {} s", config.id(), address.host(), m.retryDns());
            onControl(() -> connect(address, tries), Math.round(m.retryDns() * 1000));
            return;
        }
        MasterLink link = newLink(address, linkListener);
        links.add(link);
        link.start(true);
    }

    private void giveUp(MasterAddress address, String why) {
        log.error("{}: giving up master {}: {}", config.id(), address, why);
        givenUp.add(address);
        if (givenUp.containsAll(config.masters().list())) {
            listener.noMaster(rejectedBy.containsAll(config.masters().list()) ? REJECTED
                    : NO_MASTER + ": " + Masters.describe(config.masters().list()));
        }
    }

    @Override
    public List<MasterLink> links() {
        return links;
    }
}
