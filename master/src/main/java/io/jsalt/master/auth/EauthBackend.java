package io.jsalt.master.auth;

import java.util.List;
import java.util.Optional;

/** One eauth backend of {@code external_auth} ({@code file}, {@code pam}, {@code ldap}), as Salt's {@code salt.auth.*} modules. */
public interface EauthBackend {
    /**
     * Checks the password; the user's groups (for {@code group%} entries) when it is right, empty when not. An
     * empty password is always wrong (an LDAP simple bind with one is an anonymous bind, which would succeed).
     */
    Optional<List<String>> authenticate(String user, String password);

    /** Whether the backend still knows the user (a user it no longer knows loses their live tokens). */
    boolean hasUser(String user);

    /** A name worth handing a backend (PAM, a directory): not empty, at most 256 characters, no control characters. */
    static boolean plausibleName(String user) {
        return user != null && !user.isEmpty() && user.length() <= 256 && user.chars().noneMatch(Character::isISOControl);
    }
}
