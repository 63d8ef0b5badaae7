package io.jsalt.cli.jsalt;

import java.util.List;

/**
 * The master's resolution of a target (runner {@code target.preview}): accepted minions that match, accepted
 * minions whose grains it does not know yet, and ids a list target names that are not accepted.
 */
record TargetPreview(List<String> minions, List<String> undecided, List<String> missing) {}
