package io.jsalt.cli.call;

import io.jsalt.crypto.CryptoException;
import io.jsalt.crypto.Rsa;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.minion.channel.NotSignedInException;
import io.jsalt.transport.TransportException;
import io.jsalt.transport.codec.SaltPack;
import io.jsalt.transport.codec.WireException;
import io.jsalt.transport.message.ReturnLoad;
import java.security.PrivateKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * salt-call's return_pub: the result goes to the master as a {@code _return} whose jid is {@code "req"},
 * and the master files it as a job of its own, answering with the jid it chose (a salt-master answers
 * nothing, so the jid may be unknown).
 */
final class ReturnToMaster {
    /** The jid that asks the master to allocate one. */
    static final String REQ = "req";

    private ReturnToMaster() {}

    /** The load as sent: signed when {@code signingKey} is given (minion_sign_messages). */
    static Map<String, Object> load(String minionId, String fun, List<Object> args, LocalCall.Outcome outcome, String user,
            PrivateKey signingKey) {
        ReturnLoad ret = new ReturnLoad(minionId, REQ, fun, args, outcome.ret(), outcome.retcode(), outcome.success(),
                outcome.out());
        Map<String, Object> load = ret.toLoad();
        load.put("user", user); // the signature below covers it
        if (signingKey != null) {
            load.put("sig", Rsa.sign(signingKey, SaltPack.packBinType(load)));
        }
        return load;
    }

    /** What became of the return: the master took it (with the jid it issued, when it says), or why not. */
    record Delivery(boolean taken, Optional<String> jid, String problem) {}

    /** Sends the load; never throws for a master that is away or refuses (the call itself has run already). */
    static Delivery send(MasterChannel channel, Map<String, Object> load) {
        Object answer;
        try {
            answer = channel.send(load);
        } catch (TransportException | NotSignedInException | CryptoException | WireException e) {
            return new Delivery(false, Optional.empty(), "the master did not take the return: " + e.getMessage());
        }
        if (Boolean.FALSE.equals(answer)) {
            return new Delivery(false, Optional.empty(), "the master refused the return");
        }
        if (answer instanceof Map<?, ?> m && m.get("jid") instanceof String jid) {
            return new Delivery(true, Optional.of(jid), "");
        }
        return new Delivery(true, Optional.empty(), "");
    }
}
