package io.jsalt.master.request;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.jsalt.master.keys.KeyState;
import io.jsalt.master.keys.KeyStore;
import io.jsalt.master.support.TestKeys;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** What the master says of minions that announce their start without signing (salt-minions in their default config). */
class MinionTrustTest {
    @TempDir
    Path pki;
    final KeyPair web1 = TestKeys.minion(1);
    final KeyPair web2 = TestKeys.minion(2);
    final AtomicBoolean requireSignature = new AtomicBoolean();
    final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    final Logger trustLogger = (Logger) LoggerFactory.getLogger(MinionTrust.class);
    MinionTrust trust;

    @BeforeEach
    void setUp() {
        KeyStore keys = new KeyStore(pki);
        keys.store(KeyState.ACCEPTED, "web1", TestKeys.pem(web1));
        keys.store(KeyState.ACCEPTED, "web2", TestKeys.pem(web2));
        trust = new MinionTrust(keys, requireSignature::get);
        logs.start();
        trustLogger.setLevel(Level.WARN); // the tests' logback configuration keeps the master quiet
        trustLogger.addAppender(logs);
    }

    @AfterEach
    void tearDown() {
        trustLogger.detachAppender(logs);
        trustLogger.setLevel(null);
    }

    private List<String> warnings() {
        return logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void eachUnsignedMinionIsNamedOnceAndHowToMakeItStrictIsSaidOnlyTheFirstTime() {
        trust.started("web1", web1.getPublic(), Map.of("tag", "salt/minion/web1/start"));
        trust.started("web2", web2.getPublic(), Map.of("tag", "salt/minion/web2/start"));

        assertThat(warnings()).hasSize(2);
        assertThat(warnings().get(0)).startsWith("web1 does not sign its requests").contains("marked unverified")
                .contains("minion_sign_messages: True").contains("require_minion_sign_messages: True");
        assertThat(warnings().get(1)).startsWith("web2 does not sign its requests").contains("marked unverified")
                .doesNotContain("minion_sign_messages");
    }

    @Test
    void whenSignaturesAreRequiredEachUnsignedMinionHearsItsReturnsWillBeRefused() {
        requireSignature.set(true);

        trust.started("web1", web1.getPublic(), Map.of("tag", "salt/minion/web1/start"));
        trust.started("web2", web2.getPublic(), Map.of("tag", "salt/minion/web2/start"));

        assertThat(warnings()).hasSize(2).allSatisfy(w -> assertThat(w).contains("its returns will be refused"));
        assertThat(warnings().get(0)).contains("Set minion_sign_messages: True on that minion");
        assertThat(warnings().get(1)).startsWith("web2").doesNotContain("Set minion_sign_messages");
    }
}
