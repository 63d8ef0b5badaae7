package io.jsalt.cli;

import io.jsalt.config.MasterConfig;
import io.jsalt.master.request.ClientKey;
import io.jsalt.transport.codec.Wire;
import java.io.Console;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Who a CLI call speaks for, as Salt's {@code salt} decides it: with {@code -a EAUTH}, the user named by
 * {@code --username}/{@code --password}, else {@code JSALT_USERNAME}/{@code JSALT_PASSWORD}, else asked on
 * the terminal (the password unechoed); with {@code -T} as well, the master makes a token that is kept in
 * {@code ~/.salt_token} (0600) and used instead of the password. Without {@code -a}: the master's user (the
 * client key) when its key file is readable, else the token kept in {@code ~/.salt_token} if there is one.
 */
public final class EauthCredentials {
    private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{64}");
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    private final String eauth;
    private final boolean makeToken;
    private final String username;
    private final String password;
    private final Function<String, String> env;
    private final Console console;
    private final Path tokenFile;

    public EauthCredentials(String eauth, boolean makeToken, String username, String password, Function<String, String> env,
            Console console, Path tokenFile) {
        this.eauth = eauth;
        this.makeToken = makeToken;
        this.username = username;
        this.password = password;
        this.env = env;
        this.console = console;
        this.tokenFile = tokenFile;
    }

    /** Salt's token_file: {@code ~/.salt_token}. */
    public static Path defaultTokenFile() {
        return Path.of(System.getProperty("user.home"), ".salt_token");
    }

    /** The credentials to send, or empty for the master's user (the client key). */
    public Optional<Map<String, Object>> resolve(MasterConfig config) {
        if (eauth == null) {
            if (makeToken) {
                throw new CliException(ExitCode.USAGE, "-T needs -a EAUTH (the backend to log in with)");
            }
            if (Files.isReadable(ClientKey.file(config.cachedir(), System.getProperty("user.name")))) {
                return Optional.empty();
            }
            return keptToken().map(t -> Map.of("token", t));
        }
        Map<String, Object> creds = new LinkedHashMap<>();
        creds.put("eauth", eauth);
        creds.put("username", ask("JSALT_USERNAME", username, "Username: ", false));
        creds.put("password", ask("JSALT_PASSWORD", password, "Password: ", true));
        if (!makeToken) {
            return Optional.of(creds);
        }
        Map<String, Object> load = new LinkedHashMap<>(creds);
        load.put("cmd", "mk_token");
        String token;
        try (MasterConnection master = MasterConnection.openEauth(config, Map.of())) {
            token = Wire.string(master.call(load, CALL_TIMEOUT), "token");
        }
        keep(token);
        return Optional.of(Map.of("token", token));
    }

    private String ask(String envName, String flag, String prompt, boolean secret) {
        if (flag != null) {
            return flag;
        }
        String fromEnv = env.apply(envName);
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return fromEnv;
        }
        if (console == null) {
            throw new CliException(ExitCode.USAGE, "-a " + eauth + " needs " + (secret ? "--password" : "--username") + " or "
                    + envName + " when there is no terminal to ask on");
        }
        return secret ? new String(console.readPassword("%s", prompt)) : console.readLine("%s", prompt);
    }

    /** Salt's token_cli: the token file, written atomically and readable by its owner only. */
    private void keep(String token) {
        try {
            Path dir = tokenFile.toAbsolutePath().getParent();
            Path tmp = Files.createTempFile(dir, ".salt_token-", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, token, StandardCharsets.US_ASCII);
            Files.move(tmp, tokenFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new CliException(ExitCode.CANT_CREATE, "cannot keep the token in " + tokenFile + ": " + e.getMessage());
        }
    }

    private Optional<String> keptToken() {
        try {
            String token = Files.readString(tokenFile, StandardCharsets.US_ASCII).strip();
            return TOKEN.matcher(token).matches() ? Optional.of(token) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
