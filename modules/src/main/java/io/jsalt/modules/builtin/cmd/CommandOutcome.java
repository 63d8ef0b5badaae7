package io.jsalt.modules.builtin.cmd;

/**
 * What a finished (or killed) process left behind.
 *
 * @param pid      the process id
 * @param exitCode its exit code (128 + signal when killed)
 * @param stdout   its standard output (with stderr when merged), decoded as UTF-8, with a truncation
 *                 note when it was cut
 * @param stderr   its standard error, empty when merged
 * @param timedOut whether it was killed for running past its timeout
 */
public record CommandOutcome(long pid, int exitCode, String stdout, String stderr, boolean timedOut) {
}
