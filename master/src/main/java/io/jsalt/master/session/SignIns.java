package io.jsalt.master.session;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The minions that signed in to this master process, and which start events each has fired since its
 * last sign-in. A minion announces its start ({@code minion_start}, {@code salt/minion/<id>/start}) once,
 * right after signing in; a start event that is not preceded by a sign-in is a replay (a captured request
 * sent again) and is not fired again. Presence counts only minions found here, so a subscription to a
 * stopped minion's topic alone (the publish port takes anyone's) cannot make it look present; and once a
 * minion is seen gone, only a new sign-in makes it present again. In memory:
 * a master restart changes the session key, and every minion signs in again before it can speak.
 */
public final class SignIns {
    private final Map<String, Set<String>> startTagsSinceSignIn = new ConcurrentHashMap<>();
    /** Signed in, and not seen gone since. */
    private final Set<String> mayBePresent = ConcurrentHashMap.newKeySet();

    /** A minion's key was accepted at sign-in: its next start events count. */
    public void signedIn(String id) {
        startTagsSinceSignIn.put(id, ConcurrentHashMap.newKeySet());
        mayBePresent.add(id);
    }

    /**
     * True when {@code id} signed in to this master process and has not been seen gone since: a subscription
     * to its topic counts as its presence only then.
     */
    public boolean mayBePresent(String id) {
        return mayBePresent.contains(id);
    }

    /**
     * The presence round saw {@code id} gone: a subscription to its topic no longer counts until it signs in
     * again (a minion that restarts or loses its master signs in again; a stranger cannot).
     */
    public void seenGone(String id) {
        mayBePresent.remove(id);
    }

    /** True when {@code id} signed in to this master process (and its key was not revoked since). */
    public boolean hasSignedIn(String id) {
        return startTagsSinceSignIn.containsKey(id);
    }

    /**
     * True the first time {@code id} fires the start event {@code tag} after a sign-in; false for a repeat
     * or without a sign-in.
     */
    public boolean firstStartEvent(String id, String tag) {
        Set<String> fired = startTagsSinceSignIn.get(id);
        return fired != null && fired.add(tag);
    }

    /** The key of {@code id} was deleted or rejected: it counts again only after a new sign-in. */
    public void forget(String id) {
        startTagsSinceSignIn.remove(id);
        mayBePresent.remove(id);
    }

    /** The ids that signed in, for tests and diagnostics. */
    public Set<String> ids() {
        return new HashSet<>(startTagsSinceSignIn.keySet());
    }
}
