package io.jsalt.cli.call;

import io.jsalt.cli.CliException;
import io.jsalt.cli.ExitCode;
import io.jsalt.config.MinionConfig;
import io.jsalt.minion.auth.MasterKeyPin;
import io.jsalt.minion.auth.Session;
import io.jsalt.minion.auth.SignIn;
import io.jsalt.minion.auth.SignInResult;
import io.jsalt.minion.channel.MasterChannel;
import io.jsalt.transport.RequestClient;
import io.jsalt.transport.Transport;
import java.security.KeyPair;
import java.time.Duration;

/**
 * jsalt-call's line to its master: one sign-in with the minion's own key (as the minion daemon signs in,
 * master key pinned, every check of the reply), then encrypted requests under that session. Unlike the
 * daemon it does not wait for a pending key: like salt-call it says so and ends.
 */
final class CallerSession implements AutoCloseable {
    private final Transport transport;
    private final RequestClient client;
    private final SignIn signIn;
    private final MasterChannel channel;
    private volatile Session session;

    private CallerSession(MinionConfig config, KeyPair key) {
        this.transport = Transport.createForOneProcess();
        this.client = transport.connectRequestClient(config.master(), config.masterPort());
        Duration timeout = Duration.ofSeconds(config.authTimeout());
        this.signIn = new SignIn(config.id(), key, new MasterKeyPin(config.pkiDir(), config.masterFinger()), client, timeout);
        this.channel = new MasterChannel(client, () -> session, this::signInAgain, timeout);
    }

    /**
     * Signs in, or throws a CliException saying why not: 2 while the key waits for acceptance (salt-call's
     * code), 77 when it was rejected, 69 when the master does not answer or is full.
     */
    static CallerSession open(MinionConfig config, KeyPair key) {
        CallerSession s = new CallerSession(config, key);
        try {
            s.session = s.accepted(s.signIn.attempt(), config);
            return s;
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
    }

    private Session accepted(SignInResult result, MinionConfig config) {
        String master = config.master() + ":" + config.masterPort();
        if (result instanceof SignInResult.Accepted a) {
            return a.session();
        }
        if (result instanceof SignInResult.Pending) {
            throw new CliException(ExitCode.NO_RETURN, "Minion failed to authenticate with the master, has the minion key been "
                    + "accepted? The key of '" + config.id() + "' is pending on " + master + ": accept it there (jsalt-key -a "
                    + config.id() + ") and try again.");
        }
        if (result instanceof SignInResult.Rejected) {
            throw new CliException(ExitCode.NO_PERMISSION, "the master " + master + " rejected the key of '" + config.id()
                    + "'. Delete it on the master (jsalt-key -d " + config.id() + ") to present it again.");
        }
        if (result instanceof SignInResult.Full) {
            throw new CliException(ExitCode.UNAVAILABLE, "the master " + master + " is full (max_minions)");
        }
        if (result instanceof SignInResult.MasterRefused r) {
            throw new CliException(ExitCode.NO_PERMISSION, "refusing the master " + master + ": " + r.reason());
        }
        throw new CliException(ExitCode.UNAVAILABLE, "the master " + master + " did not answer the sign-in within "
                + config.authTimeout() + " s (" + ((SignInResult.Failed) result).reason() + ")");
    }

    /** The master changed its session key meanwhile ("bad load"): sign in once more. */
    private Session signInAgain(Session failed) {
        if (session != failed) {
            return session;
        }
        SignInResult result = signIn.attempt();
        session = result instanceof SignInResult.Accepted a ? a.session() : null;
        return session;
    }

    MasterChannel channel() {
        return channel;
    }

    @Override
    public void close() {
        client.close();
        transport.close();
    }
}
