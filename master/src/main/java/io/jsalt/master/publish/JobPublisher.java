package io.jsalt.master.publish;

import io.jsalt.master.session.SessionKey;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.Topics;
import java.security.PrivateKey;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Encrypts, signs and sends jobs on the publish port. Without zmq_filtering one frame reaches every
 * minion and each matches the target itself; with it, one frame per expected minion under the topic
 * {@code sha1(id)} hex, as Salt does. Which of the targeted minions had no subscription when a job went out is
 * told to {@link #whenNotListening}, so they can be given it when they sign in ({@link LateSignIns}).
 */
public final class JobPublisher {
    private final PublishServer server;
    private final SessionKey sessionKey;
    private final PrivateKey signingKey;
    private final boolean zmqFiltering;
    private volatile BiConsumer<String, List<String>> notListening = (jid, ids) -> { };
    private volatile Consumer<PublishLoad> published = job -> { };

    public JobPublisher(PublishServer server, SessionKey sessionKey, PrivateKey signingKey, boolean zmqFiltering) {
        this.server = server;
        this.sessionKey = sessionKey;
        this.signingKey = signingKey;
        this.zmqFiltering = zmqFiltering;
    }

    /** Called with a job's jid and the targeted minions that were not subscribed when it was published (if any). */
    public void whenNotListening(BiConsumer<String, List<String>> listener) {
        this.notListening = listener;
    }

    /** Called with every job {@link #publish} sent (not the ones sent again to one minion, nor relayed ones). */
    public void whenPublished(Consumer<PublishLoad> listener) {
        this.published = listener;
    }

    /** Publishes {@code job} to {@code targeted} (the expected and the undecided minions). */
    public void publish(PublishLoad job, List<String> targeted) {
        publishHere(job, targeted);
        published.accept(job);
    }

    /**
     * Publishes a job another master of the cluster published (relayed through the database) to this master's
     * minions, as {@link #publish} would, without handing it on again.
     */
    public void publishRelayed(PublishLoad job, List<String> targeted) {
        publishHere(job, targeted);
    }

    private void publishHere(PublishLoad job, List<String> targeted) {
        // seen before the frame is queued: a minion that subscribes in between gets it twice, and runs it once
        Set<String> topics = server.subscribedTopics();
        send(job, targeted);
        List<String> absent = targeted.stream().filter(id -> !Topics.isSubscribedBy(topics, id)).toList();
        if (!absent.isEmpty()) {
            notListening.accept(job.jid(), absent);
        }
    }

    /**
     * Sends {@code job} again to minion {@code id} alone, with its jid, as a list target of that one id: under
     * zmq_filtering on that minion's topic only, without it to every subscriber, of which only that minion matches.
     */
    public void publishTo(PublishLoad job, String id) {
        publishTo(job, List.of(id));
    }

    /**
     * Sends {@code job} again to the minions {@code ids} alone, in one publication (one signature) with a list
     * target of those ids: under zmq_filtering on each one's topic, without it once to every subscriber.
     */
    public void publishTo(PublishLoad job, List<String> ids) {
        List<String> to = List.copyOf(ids);
        send(new PublishLoad(job.fun(), job.arg(), to, job.jid(), job.ret(), "list", job.user()), to);
    }

    /**
     * Synchronized: the serials must reach the socket's queue in the order they are taken, since a minion refuses a
     * serial not above the last it saw, and jobs are published from every MWorker and the late-sign-ins thread.
     */
    private synchronized void send(PublishLoad job, List<String> targeted) {
        Map<String, Object> load = job.toLoad();
        load.put("serial", sessionKey.nextSerial());
        byte[] frame = Publication.encode(sessionKey.crypticle(), signingKey, load);
        if (!zmqFiltering) {
            server.publish(frame);
            return;
        }
        for (String id : targeted) {
            server.publish(Topics.ofMinion(id), frame);
        }
    }
}
