package io.jsalt.cli.jsalt;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What to say of minions that sent no return event in time. Never a false "did not return" (Salt #57750):
 * the master's job cache is asked first, and a return stored there (its event lost on the way) counts as
 * returned. The rest are {@code [Not connected]} when the master knows they are not connected, else
 * {@code [No response]}.
 */
final class Silence {
    static final String NO_RESPONSE = "Minion did not return. [No response]";
    static final String NOT_CONNECTED = "Minion did not return. [Not connected]";

    /** Salt's [No response] notice with its hint, naming jsalt's command to look the job up later. */
    static String noResponse(String jid, LookupHint hint) {
        if (jid == null) {
            return NO_RESPONSE;
        }
        return NO_RESPONSE + "\nThe minions may not have all finished running and any remaining minions will return upon "
                + "completion. To look up the return data for this job later, run the following command:\n\n"
                + hint.command(jid);
    }

    /** Returns found in the job cache, and the notice for each minion that truly did not return. */
    record Verdict(Map<String, Answer> recovered, Map<String, String> notReturned) {}

    private Silence() {}

    static Verdict judge(MasterLink master, String jid, Collection<String> silent, LookupHint hint) {
        Map<String, Answer> recovered = new LinkedHashMap<>();
        Map<String, String> notReturned = new LinkedHashMap<>();
        if (silent.isEmpty()) {
            return new Verdict(recovered, notReturned);
        }
        Map<String, Answer> stored = jid == null ? Map.of() : master.storedReturns(jid);
        Optional<Set<String>> present = Optional.empty();
        boolean presenceAsked = false;
        for (String id : silent) {
            Answer a = stored.get(id);
            if (a != null) {
                recovered.put(id, a);
                continue;
            }
            if (!presenceAsked) {
                present = master.present();
                presenceAsked = true;
            }
            boolean gone = present.isPresent() && !present.get().contains(id);
            notReturned.put(id, gone ? NOT_CONNECTED : noResponse(jid, hint));
        }
        return new Verdict(recovered, notReturned);
    }
}
