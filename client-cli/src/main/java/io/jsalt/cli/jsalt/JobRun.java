package io.jsalt.cli.jsalt;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One job from publish to the last word on every targeted minion: returned, recovered from the job cache, or silent. */
final class JobRun {
    /** Hears of a run as it happens, to print it. */
    interface Listener {
        default void published(Published p) {}

        void answered(String id, Answer answer);

        void silent(String id, String notice);
    }

    /** A finished run: every targeted minion is in {@code answers} or in {@code notReturned}. */
    record Outcome(String jid, List<String> targeted, Map<String, Answer> answers, Map<String, String> notReturned) {
        long failed() {
            return answers.values().stream().filter(Answer::failed).count();
        }
    }

    private final MasterLink master;
    private final JobWaiter waiter;
    private final LookupHint hint;

    JobRun(MasterLink master, JobWaiter waiter) {
        this(master, waiter, LookupHint.DEFAULT);
    }

    /** {@code hint}: how the notice for a silent minion tells the user to look the job up later. */
    JobRun(MasterLink master, JobWaiter waiter, LookupHint hint) {
        this.master = master;
        this.waiter = waiter;
        this.hint = hint;
    }

    /** Runs the job; empty when the master matched no minion (nothing was sent). */
    Optional<Outcome> run(JobSpec job, Listener listener) throws IOException {
        Published p = master.publish(job);
        if (p.minions().isEmpty() && p.undecided().isEmpty()) {
            return Optional.empty();
        }
        listener.published(p);
        // an undecided minion that answers was targeted; one that stays silent most likely was not, so it is
        // waited for but never reported as missing
        List<String> awaited = new ArrayList<>(p.minions());
        awaited.addAll(p.undecided());
        Map<String, Answer> answers = new LinkedHashMap<>(waiter.await(p.jid(), awaited, listener::answered));
        List<String> silent = new ArrayList<>(p.minions());
        silent.removeAll(answers.keySet());
        p.missing().stream().filter(id -> !silent.contains(id) && !answers.containsKey(id)).forEach(silent::add);
        Silence.Verdict verdict = Silence.judge(master, p.jid(), silent, hint);
        verdict.recovered().forEach((id, a) -> {
            answers.put(id, a);
            listener.answered(id, a);
        });
        verdict.notReturned().forEach(listener::silent);
        List<String> targeted = new ArrayList<>(p.minions());
        p.undecided().stream().filter(answers::containsKey).forEach(targeted::add);
        p.missing().stream().filter(id -> !targeted.contains(id)).forEach(targeted::add);
        return Optional.of(new Outcome(p.jid(), targeted, answers, verdict.notReturned()));
    }
}
