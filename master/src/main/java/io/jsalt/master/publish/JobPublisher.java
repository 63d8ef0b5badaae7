package io.jsalt.master.publish;

import io.jsalt.master.session.SessionKey;
import io.jsalt.transport.PublishServer;
import io.jsalt.transport.message.Publication;
import io.jsalt.transport.message.PublishLoad;
import io.jsalt.transport.message.Topics;
import java.security.PrivateKey;
import java.util.List;
import java.util.Map;

/**
 * Encrypts, signs and sends jobs on the publish port. Without zmq_filtering one frame reaches every
 * minion and each matches the target itself; with it, one frame per expected minion under the topic
 * {@code sha1(id)} hex, as Salt does.
 */
public final class JobPublisher {
    private final PublishServer server;
    private final SessionKey sessionKey;
    private final PrivateKey signingKey;
    private final boolean zmqFiltering;

    public JobPublisher(PublishServer server, SessionKey sessionKey, PrivateKey signingKey, boolean zmqFiltering) {
        this.server = server;
        this.sessionKey = sessionKey;
        this.signingKey = signingKey;
        this.zmqFiltering = zmqFiltering;
    }

    /**
     * Sends {@code job} again to minion {@code id} alone, with its jid, as a list target of that one id: under
     * zmq_filtering on that minion's topic only, without it to every subscriber, of which only that minion matches.
     */
    public void publishTo(PublishLoad job, String id) {
        publish(new PublishLoad(job.fun(), job.arg(), List.of(id), job.jid(), job.ret(), "list", job.user()), List.of(id));
    }

    public void publish(PublishLoad job, List<String> expectedMinions) {
        Map<String, Object> load = job.toLoad();
        load.put("serial", sessionKey.nextSerial());
        byte[] frame = Publication.encode(sessionKey.crypticle(), signingKey, load);
        if (!zmqFiltering) {
            server.publish(frame);
            return;
        }
        for (String id : expectedMinions) {
            server.publish(Topics.ofMinion(id), frame);
        }
    }
}
