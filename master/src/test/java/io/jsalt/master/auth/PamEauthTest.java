package io.jsalt.master.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.config.EauthBackendOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Salt's pam eauth through the host's real libpam, with a PAM service of this test's own: a file
 * {@code /etc/pam.d/jsalt-test-<random>} (removed after the class, and by a shutdown hook) whose auth stack is
 * {@code pam_exec} running a script of the test that accepts one password for the existing account
 * {@code nobody}. So the whole path is real (libpam4j over JNA, pam_start/authenticate/setcred/acct_mgmt, a real
 * PAM module, the account's OS groups from libc) while the host's users, groups and other services are left as
 * they are: no account is made and no password is set. Needs root, as writing to /etc/pam.d does (CI runs as root).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PamEauthTest {
    private static final String PASSWORD = "pam-" + HexFormat.of().formatHex(new SecureRandom().generateSeed(6));

    private final String service = "jsalt-test-" + HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
    private final Path serviceFile = Path.of("/etc/pam.d", service);
    private final Thread cleanup = new Thread(this::removeService, "jsalt-pam-test-cleanup");
    /** Where the user {@code slowpoke}'s conversation says it has started, and waits (at most 15 s) to be let go. */
    private Path entered;
    private Path release;

    @BeforeAll
    void installService(@TempDir Path dir) throws IOException {
        Path check = dir.resolve("check-password");
        entered = dir.resolve("entered");
        release = dir.resolve("release");
        // pam_exec's expose_authtok writes the password to stdin, ended by a NUL
        Files.writeString(check, """
                #!/bin/bash
                if [ "$PAM_USER" = slowpoke ]; then
                  touch '%s'
                  for i in $(seq 300); do [ -e '%s' ] && break; sleep 0.05; done
                  exit 1
                fi
                [ "$PAM_USER" = nobody ] || exit 1
                IFS= read -r -d '' offered
                [ "$offered" = '%s' ]
                """.formatted(entered, release, PASSWORD));
        Files.setPosixFilePermissions(check, PosixFilePermissions.fromString("rwx------"));
        Runtime.getRuntime().addShutdownHook(cleanup);
        Files.writeString(serviceFile, """
                # jsalt's PamEauthTest, removed when it ends
                auth     required pam_exec.so quiet expose_authtok %s
                auth     optional pam_permit.so
                account  required pam_permit.so
                """.formatted(check));
    }

    @AfterAll
    void removeServiceFile() {
        removeService();
        Runtime.getRuntime().removeShutdownHook(cleanup);
    }

    private void removeService() {
        try {
            Files.deleteIfExists(serviceFile);
        } catch (IOException e) {
            System.err.println("PamEauthTest: cannot remove " + serviceFile + ": " + e.getMessage());
        }
    }

    @Test
    void theServicesStackDecidesAndTheGroupsAreTheAccountsOsGroups() {
        PamEauth pam = new PamEauth(service);
        assertThat(pam.authenticate("nobody", PASSWORD)).contains(List.of("nogroup"));
        assertThat(pam.authenticate("nobody", PASSWORD + "x")).isEmpty();
        assertThat(pam.authenticate("root", PASSWORD)).as("the stack accepts nobody only").isEmpty();
    }

    @Test
    void anEmptyPasswordOrANameWithControlCharactersNeverReachesPam() {
        PamEauth pam = new PamEauth(service);
        assertThat(pam.authenticate("nobody", "")).isEmpty();
        assertThat(pam.authenticate("nobody\n", PASSWORD)).isEmpty();
    }

    @Test
    void anotherServiceDoesNotKnowThisPassword() {
        // Debian's "login" stack (pam_unix): nobody has no usable password there
        assertThat(new PamEauth("login").authenticate("nobody", PASSWORD)).isEmpty();
    }

    @Test
    void theOsAccountDecidesWhetherTheUserStillExists() {
        assertThat(new PamEauth(service).hasUser("nobody")).isTrue();
        assertThat(new PamEauth(service).hasUser("no-such-user-" + service)).isFalse();
    }

    @Test
    void authPamServiceAndGroupEntriesGiveTheRightsThroughTheMastersEauth(@TempDir Path dir) throws EauthException {
        EauthSettings settings = EauthSettings.fixed(Map.of("pam", Map.of(
                "nogroup%", List.of("test.ping"),
                "nobody", List.of("@jobs"))), 3600, new EauthBackendOptions(service, EauthBackendOptions.Ldap.DEFAULTS));
        Eauth eauth = new Eauth(settings, new TokenFiles(dir.resolve("tokens"), Clock.systemUTC(), () -> 3600));

        EauthToken token = eauth.login(Map.of("eauth", "pam", "username", "nobody", "password", PASSWORD));

        assertThat(token.groups()).containsExactly("nogroup");
        assertThat(eauth.caller(Map.of("token", token.token())).perms().entries()).containsExactlyInAnyOrder("@jobs", "test.ping");
    }

    @Test
    void aSlowConversationHoldsBackOnlyItsOwnUser() throws Exception {
        PamEauth pam = new PamEauth(service);
        java.util.concurrent.ExecutorService other = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<java.util.Optional<List<String>>> slow = other.submit(() -> pam.authenticate("slowpoke", "a guess"));
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> Files.exists(entered));
            // PAM is still talking to slowpoke's stack (a faildelay, a slow module): nobody logs in meanwhile
            assertThat(pam.authenticate("nobody", PASSWORD)).contains(List.of("nogroup"));
            assertThat(slow.isDone()).as("slowpoke's conversation was still running").isFalse();
            Files.createFile(release);
            assertThat(slow.get(20, java.util.concurrent.TimeUnit.SECONDS)).isEmpty();
        } finally {
            other.shutdownNow();
        }
    }
}
