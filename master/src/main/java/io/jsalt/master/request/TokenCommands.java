package io.jsalt.master.request;

import io.jsalt.master.auth.Eauth;
import io.jsalt.master.auth.EauthException;
import io.jsalt.master.auth.EauthToken;
import io.jsalt.transport.codec.SaltPack;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The clear token commands: Salt's {@code mk_token} (eauth credentials in, token data out) and
 * {@code get_token} (a token in, its data out while it lives), and jsalt's {@code rm_token} (logout: whoever
 * holds a token may end it). None needs the client key: the credentials or the token are the proof.
 */
public final class TokenCommands {
    private final Eauth eauth;
    private final ClientKey clientKey;

    public TokenCommands(Eauth eauth, ClientKey clientKey) {
        this.eauth = eauth;
        this.clientKey = clientKey;
    }

    public byte[] mkToken(Map<String, Object> load) {
        try {
            return reply(eauth.login(load, SourceAddress.of(load, clientKey)).toMap());
        } catch (EauthException e) {
            return SaltPack.pack(RequestDispatcher.error(e.getMessage()));
        }
    }

    public byte[] getToken(Map<String, Object> load) {
        Optional<EauthToken> token = eauth.token(load.get("token"));
        if (token.isEmpty()) {
            return SaltPack.pack(RequestDispatcher.error(Eauth.BAD_TOKEN));
        }
        return reply(token.get().toMap());
    }

    public byte[] rmToken(Map<String, Object> load) {
        return reply(Map.of("revoked", eauth.logout(load.get("token"))));
    }

    private static byte[] reply(Map<String, Object> body) {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("enc", "clear");
        envelope.put("load", body);
        return SaltPack.pack(envelope);
    }
}
