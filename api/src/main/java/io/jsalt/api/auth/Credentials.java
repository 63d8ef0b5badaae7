package io.jsalt.api.auth;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who a lowstate chunk runs for, and the proof the master checks with every request: a login's token, or
 * (for {@code POST /run}) the chunk's own {@code eauth}/{@code username}/{@code password}. The proof is only
 * ever sent to the master, never logged.
 */
public record Credentials(String user, String eauth, Map<String, Object> proof, String address) {

    public static Credentials of(Token token) {
        return new Credentials(token.user(), token.eauth(), Map.of("token", token.token()), null);
    }

    /** @param address the HTTP client's address: the master's login limit counts failed passwords per address too */
    public static Credentials inline(String eauth, String user, String password, String address) {
        Map<String, Object> proof = new LinkedHashMap<>();
        proof.put("eauth", eauth);
        proof.put("username", user);
        proof.put("password", password);
        return new Credentials(user, eauth, Map.copyOf(proof), address);
    }

    @Override
    public String toString() {
        return "Credentials[" + user + " via " + eauth + "]"; // never the password or the token
    }
}
