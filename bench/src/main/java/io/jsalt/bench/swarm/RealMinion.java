package io.jsalt.bench.swarm;

import io.jsalt.config.MinionConfig;
import io.jsalt.config.MinionConfigBuilder;
import io.jsalt.minion.Minion;
import io.jsalt.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;

/** The product's own minion ({@link Minion}), one instance per id, all on the worker's transport. */
final class RealMinion implements SwarmMinion {
    private final Minion minion;

    RealMinion(SwarmSettings settings, String id, KeyCache keys, Transport transport) {
        Path root = settings.root();
        String pki = "/etc/jsalt/pki/" + id;
        try {
            Path pkiDir = root.resolve(pki.substring(1));
            Files.createDirectories(pkiDir);
            Files.copy(keys.privateKey(id), pkiDir.resolve("minion.pem"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(keys.publicKey(id), pkiDir.resolve("minion.pub"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        MinionConfigBuilder builder = MinionConfig.builder(root).id(id).master("127.0.0.1")
                .masterPort(settings.retPort()).publishPort(settings.publishPort())
                .pkiDir(pki).cachedir("/var/cache/jsalt/" + id)
                .acceptanceWaitTime(1).authTimeout(settings.authTimeout())
                .randomReauthDelay(settings.reauthDelay())
                .set("minion_sign_messages", settings.signReturns());
        if (settings.failoverRetPort() > 0) {
            builder.set("master", List.of("127.0.0.1:" + settings.retPort(), "127.0.0.1:" + settings.failoverRetPort()))
                    .set("master_type", "failover").set("master_alive_interval", 1);
        }
        MinionConfig config = builder.build();
        this.minion = new Minion(config, transport);
    }

    @Override
    public void start() {
        minion.start();
    }

    @Override
    public boolean isSignedIn() {
        return minion.state() == Minion.State.SIGNED_IN;
    }

    @Override
    public Instant signedInAt() {
        return minion.signedInAt();
    }

    @Override
    public void close() {
        minion.close();
    }
}
