package io.jsalt.master.auth;

import io.jsalt.transport.codec.Printable;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.jvnet.libpam.PAM;
import org.jvnet.libpam.PAMException;
import org.jvnet.libpam.UnixUser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Salt's {@code pam} eauth backend ({@code salt/auth/pam.py}): the host's PAM stack, service
 * {@code auth.pam.service} ({@code login} by default, as Salt), through libpam4j (the binding Jenkins' PAM
 * plugin uses) on JNA; the groups are the user's OS groups (Salt's {@code get_group_list}), matched against
 * {@code group%} entries. As in Salt, PAM runs inside the master, whose user must be allowed to check
 * passwords (root, or a member of {@code shadow} for {@code pam_unix}).
 *
 * <p>One PAM transaction at a time: PAM modules are not all thread-safe (pam_unix reads the password files
 * through non-reentrant libc calls), and logins are rare and limited anyway ({@link LoginLimiter}).
 */
public final class PamEauth implements EauthBackend {
    private static final Logger log = LoggerFactory.getLogger(PamEauth.class);
    private static final Object ONE_AT_A_TIME = new Object();

    private final String service;

    public PamEauth(String service) {
        this.service = service;
    }

    @Override
    public Optional<List<String>> authenticate(String user, String password) {
        if (password == null || password.isEmpty() || !plausible(user)) {
            return Optional.empty();
        }
        synchronized (ONE_AT_A_TIME) {
            PAM pam = null;
            try {
                pam = new PAM(service);
                UnixUser unix = pam.authenticate(user, password);
                return Optional.of(List.copyOf(new TreeSet<>(unix.getGroups())));
            } catch (PAMException e) {
                log.info("pam ({}) refused {}: {}", service, Printable.quoted(user), e.getMessage());
                return Optional.empty();
            } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
                log.error("pam eauth is unavailable: the host's libpam cannot be loaded ({})", e.toString());
                return Optional.empty();
            } finally {
                if (pam != null) {
                    pam.dispose();
                }
            }
        }
    }

    /** The OS still has the account (a user deleted from the host loses their live tokens). */
    @Override
    public boolean hasUser(String user) {
        if (!plausible(user)) {
            return false;
        }
        try {
            return UnixUser.exists(user);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            log.error("pam eauth is unavailable: the host's libc cannot be loaded ({})", e.toString());
            return false;
        }
    }

    /** What PAM is handed: a name with no control characters, at most 256 characters. */
    private static boolean plausible(String user) {
        return user != null && !user.isEmpty() && user.length() <= 256 && user.chars().noneMatch(Character::isISOControl);
    }
}
