package io.jsalt.master.auth;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A login token as Salt's {@code LoadAuth.mk_token} writes it: the value, when it was made and when it dies
 * (seconds since the epoch), the user's name, the eauth backend that vouched for them and the groups it
 * reported at login (for {@code group%} entries).
 */
public record EauthToken(String token, double start, double expire, String name, String eauth, List<String> groups) {

    public EauthToken {
        groups = groups == null ? List.of() : List.copyOf(groups);
    }

    public EauthToken(String token, double start, double expire, String name, String eauth) {
        this(token, start, expire, name, eauth, List.of());
    }

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
        if (!groups.isEmpty()) {
            m.put("groups", groups); // Salt's token data carries the groups found at login too
        }
        return m;
    }

    /** Reads token data; a field of the wrong type is an IllegalArgumentException. */
    public static EauthToken fromMap(Map<?, ?> m) {
        if (!(m.get("token") instanceof String token) || !(m.get("name") instanceof String name)
                || !(m.get("eauth") instanceof String eauth) || !(m.get("start") instanceof Number start)
                || !(m.get("expire") instanceof Number expire)) {
            throw new IllegalArgumentException("malformed token data");
        }
        List<String> groups = new java.util.ArrayList<>();
        if (m.get("groups") instanceof List<?> list) {
            list.forEach(g -> {
                if (g instanceof String s) {
                    groups.add(s);
                }
            });
        }
        return new EauthToken(token, start.doubleValue(), expire.doubleValue(), name, eauth, groups);
    }
}
