package io.jsalt.cli.jsalt;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Salt's batch mode in waves: the resolved minions run the job {@code size} at a time, each wave published
 * to exactly its minions (tgt_type list). A wave ends when all its minions have answered or been judged
 * silent, so an offline minion costs one timeout plus one find_job round, and never hangs the run
 * (Salt #66249). {@code --batch-wait} pauses between waves; {@code --failhard} stops after a wave in which a
 * minion returned a non-zero retcode.
 */
final class BatchRun {
    /** Waits between waves; tests pass one that moves a fake clock. */
    @FunctionalInterface
    interface Pause {
        void pause(Duration d) throws InterruptedException;
    }

    /** Every wave's results together; {@code notRun} were never sent the job (after a failhard stop). */
    record Result(List<String> targeted, Map<String, Answer> answers, Map<String, String> notReturned, List<String> notRun) {
        long failed() {
            return answers.values().stream().filter(Answer::failed).count();
        }
    }

    private final MasterLink master;
    private final JobRun jobs;
    private final PrintWriter err;
    private final Duration batchWait;
    private final boolean failhard;
    private final Pause pause;

    BatchRun(MasterLink master, JobRun jobs, PrintWriter err, Duration batchWait, boolean failhard, Pause pause) {
        this.master = master;
        this.jobs = jobs;
        this.err = err;
        this.batchWait = batchWait;
        this.failhard = failhard;
        this.pause = pause;
    }

    /** The waves for {@code minions}, {@code size} each, in order. */
    static List<List<String>> waves(List<String> minions, int size) {
        List<List<String>> waves = new ArrayList<>();
        for (int i = 0; i < minions.size(); i += size) {
            waves.add(List.copyOf(minions.subList(i, Math.min(minions.size(), i + size))));
        }
        return waves;
    }

    Result run(JobSpec job, List<String> minions, int size, JobRun.Listener listener) throws IOException, InterruptedException {
        Map<String, Answer> answers = new LinkedHashMap<>();
        Map<String, String> notReturned = new LinkedHashMap<>();
        List<String> notRun = new ArrayList<>();
        List<List<String>> waves = waves(minions, size);
        for (int w = 0; w < waves.size(); w++) {
            List<String> wave = waves.get(w);
            if (w > 0 && !batchWait.isZero()) {
                pause.pause(batchWait);
            }
            err.println();
            err.println("Executing run on " + pythonList(wave));
            err.println();
            err.flush();
            Optional<JobRun.Outcome> outcome = jobs.run(job.toList(wave), listener);
            if (outcome.isPresent()) {
                answers.putAll(outcome.get().answers());
                notReturned.putAll(outcome.get().notReturned());
            } else {
                // their keys went away since the target was resolved: nothing was sent to them
                Silence.judge(master, null, wave, LookupHint.DEFAULT).notReturned().forEach((id, notice) -> {
                    notReturned.put(id, notice);
                    listener.silent(id, notice);
                });
            }
            Optional<String> failedMinion = wave.stream().filter(id -> answers.containsKey(id) && answers.get(id).failed()).findFirst();
            if (failhard && failedMinion.isPresent() && w + 1 < waves.size()) {
                waves.subList(w + 1, waves.size()).forEach(notRun::addAll);
                err.println("Minion " + failedMinion.get() + " returned with non-zero exit code. Batch run stopped due to failhard");
                err.flush();
                break;
            }
        }
        return new Result(List.copyOf(minions), answers, notReturned, notRun);
    }

    /** Salt prints the wave as Python prints a sorted list of text. */
    static String pythonList(List<String> ids) {
        return ids.stream().sorted().map(id -> "'" + id + "'").collect(Collectors.joining(", ", "[", "]"));
    }
}
