package io.jsalt.master.auth;

import io.jsalt.transport.codec.SaltPack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's login tokens, one file per token in {@code cachedir/tokens} as Salt's {@code localfs} token
 * store keeps them (msgpack token data, the file named by the token), so every API process and CLI of this
 * master shares them and they survive restarts. The folder is 0700 and each file 0600. A token is 64 hex
 * digits from a SecureRandom (Salt's sha256 hash_type length); anything else is never turned into a path,
 * so a token cannot name a file outside the folder.
 */
public final class TokenFiles {
    private static final Logger log = LoggerFactory.getLogger(TokenFiles.class);
    private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{64}");

    private final Path dir;
    private final Clock clock;
    private final LongSupplier tokenExpireSeconds;
    private final SecureRandom random = new SecureRandom();

    /** @param tokenExpireSeconds read at each login, so a reloaded {@code token_expire} applies to new tokens */
    public TokenFiles(Path dir, Clock clock, LongSupplier tokenExpireSeconds) {
        this.dir = dir;
        this.clock = clock;
        this.tokenExpireSeconds = tokenExpireSeconds;
    }

    /** Salt's mk_token: a new token for {@code name} vouched for by {@code eauth}; expired files are swept first. */
    public EauthToken create(String name, String eauth) {
        return create(name, eauth, List.of());
    }

    /** A new token for {@code name}, who belongs to {@code groups} as the backend said at login. */
    public EauthToken create(String name, String eauth, List<String> groups) {
        sweepExpired();
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        double now = now();
        EauthToken token = new EauthToken(HexFormat.of().formatHex(bytes), now, now + tokenExpireSeconds.getAsLong(), name, eauth, groups);
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path tmp = Files.createTempFile(dir, ".tok-", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(tmp, SaltPack.pack(token.toMap()));
            Files.move(tmp, dir.resolve(token.token()), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a token in " + dir, e);
        }
        return token;
    }

    /** Salt's get_token: the live token with this value; an expired one is deleted and not returned. */
    public Optional<EauthToken> find(Object value) {
        if (!(value instanceof String s) || !TOKEN.matcher(s).matches()) {
            return Optional.empty();
        }
        Path file = dir.resolve(s);
        EauthToken token;
        try {
            token = EauthToken.fromMap(asMap(SaltPack.unpack(Files.readAllBytes(file))));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            log.warn("unreadable token file {}: {}", file.getFileName().toString().substring(0, 8) + "...", e.getMessage());
            return Optional.empty();
        }
        if (!token.token().equals(s) || token.expiredAt(now())) {
            revoke(s);
            return Optional.empty();
        }
        return Optional.of(token);
    }

    /** Logout: the token is dead from now on. True when it existed. */
    public boolean revoke(Object value) {
        if (!(value instanceof String s) || !TOKEN.matcher(s).matches()) {
            return false;
        }
        try {
            return Files.deleteIfExists(dir.resolve(s));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete a token in " + dir, e);
        }
    }

    /** Salt's clean_expired_tokens, run at each login so the folder does not grow with dead logins. */
    private void sweepExpired() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                find(f.getFileName().toString());
            }
        } catch (IOException e) {
            log.warn("cannot sweep the expired tokens in {}: {}", dir, e.getMessage());
        }
    }

    private static Map<?, ?> asMap(Object value) {
        if (value instanceof Map<?, ?> m) {
            return m;
        }
        throw new IllegalArgumentException("token data is not a mapping");
    }

    private double now() {
        return clock.millis() / 1000.0;
    }
}
