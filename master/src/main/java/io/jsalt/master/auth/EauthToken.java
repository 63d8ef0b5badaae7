package io.jsalt.master.auth;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A login token as Salt's {@code LoadAuth.mk_token} writes it: the value, when it was made and when it dies
 * (seconds since the epoch), the user's name and the eauth backend that vouched for them.
 */
public record EauthToken(String token, double start, double expire, String name, String eauth) {

    /** Dead from its expiry instant on: at exactly {@code expire} the token is refused (Salt still accepts it then). */
    public boolean expiredAt(double now) {
        return now >= expire;
    }

    /** Salt's token data: {@code {"start", "expire", "name", "eauth", "token"}}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("start", start);
        m.put("expire", expire);
        m.put("name", name);
        m.put("eauth", eauth);
        m.put("token", token);
        return m;
    }

    /** Reads token data; a field of the wrong type is an IllegalArgumentException. */
    public static EauthToken fromMap(Map<?, ?> m) {
        if (!(m.get("token") instanceof String token) || !(m.get("name") instanceof String name)
                || !(m.get("eauth") instanceof String eauth) || !(m.get("start") instanceof Number start)
                || !(m.get("expire") instanceof Number expire)) {
            throw new IllegalArgumentException("malformed token data");
        }
        return new EauthToken(token, start.doubleValue(), expire.doubleValue(), name, eauth);
    }
}
