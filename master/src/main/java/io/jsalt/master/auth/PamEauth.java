package io.jsalt.master.auth;

import io.jsalt.transport.codec.Printable;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
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
 * <p>One PAM transaction at a time per user name, so a wrong password's {@code pam_faildelay} (seconds) holds
 * back only that user's next attempt, not everyone's login; transactions of different users run at once (each
 * with its own PAM handle, which Linux-PAM allows; its modules read the password files through the reentrant
 * {@code pam_modutil} calls), at most as many as {@link Eauth}'s backend threads. The account and its groups
 * are read with libc's non-reentrant {@code getpwnam}/{@code getgrgid}, one at a time ({@link #LIBC}).
 */
public final class PamEauth implements EauthBackend {
    private static final Logger log = LoggerFactory.getLogger(PamEauth.class);
    /** libc's passwd and group lookups share static buffers: one reader at a time. */
    private static final Object LIBC = new Object();
    /** One transaction at a time per user: a name always takes the same one of these locks. */
    private static final Object[] PER_USER = new Object[64];

    static {
        for (int i = 0; i < PER_USER.length; i++) {
            PER_USER[i] = new Object();
        }
    }

    private final String service;

    public PamEauth(String service) {
        this.service = service;
    }

    @Override
    public Optional<List<String>> authenticate(String user, String password) {
        if (password == null || password.isEmpty() || !EauthBackend.plausibleName(user)) {
            return Optional.empty();
        }
        String account;
        try {
            synchronized (PER_USER[Math.floorMod(user.hashCode(), PER_USER.length)]) {
                account = PamConversation.authenticate(service, user, password);
            }
        } catch (PAMException e) {
            log.info("pam ({}) refused {}: {}", service, Printable.quoted(user), e.getMessage());
            return Optional.empty();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            log.error("pam eauth is unavailable: the host's libpam cannot be loaded ({})", e.toString());
            return Optional.empty();
        }
        try {
            synchronized (LIBC) {
                return Optional.of(List.copyOf(new TreeSet<>(new UnixUser(account).getGroups())));
            }
        } catch (PAMException e) {
            log.info("pam ({}) accepted {} but the account cannot be read: {}", service, Printable.quoted(user), e.getMessage());
            return Optional.empty();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            log.error("pam eauth is unavailable: the host's libc cannot be loaded ({})", e.toString());
            return Optional.empty();
        }
    }

    /** The OS still has the account (a user deleted from the host loses their live tokens). */
    @Override
    public boolean hasUser(String user) {
        if (!EauthBackend.plausibleName(user)) {
            return false;
        }
        try {
            synchronized (LIBC) {
                return UnixUser.exists(user);
            }
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            log.error("pam eauth is unavailable: the host's libc cannot be loaded ({})", e.toString());
            return false;
        }
    }
}
