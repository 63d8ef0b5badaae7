package io.jsalt.cli.output;

import io.jsalt.config.StateOutputSettings;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * Salt's --state-output and --state-verbose, for the commands that show state runs (jsalt, jsalt-call): each
 * overrides the config's {@code state_output} / {@code state_verbose} (the master's for jsalt, the minion's for
 * jsalt-call), as Salt's flags override its opts.
 */
public final class StateOutputOptions {
    @Option(names = {"--state-output", "--state_output"}, paramLabel = "MODE",
            description = "How the highstate outputter shows each state: full, terse, mixed (terse unless it failed), "
                    + "changes (terse unless it changed or failed); each also as *_id (the id in place of the name). "
                    + "Default: the config's state_output (full).")
    String stateOutput;

    @Option(names = {"--state-verbose", "--state_verbose"}, paramLabel = "True|False",
            description = "False: the highstate outputter leaves out the states that succeeded without changes. "
                    + "Default: the config's state_verbose (True).")
    String stateVerbose;

    /** The flags as picocli sets them, from the command line. */
    public StateOutputOptions() {}

    /** The flags as read without picocli (jsalt's plain command lines); null for a flag not given. */
    public StateOutputOptions(String stateOutput, String stateVerbose) {
        this.stateOutput = stateOutput;
        this.stateVerbose = stateVerbose;
    }

    /** Checks the flags alone, before any config is read; IllegalArgumentException names a bad value. */
    public void check() {
        outputter(Palette.NONE, StateOutputSettings.DEFAULTS);
    }

    /** The highstate outputter for these flags over {@code configured}; IllegalArgumentException names a bad value. */
    public HighstateOutputter outputter(Palette palette, StateOutputSettings configured) {
        boolean verbose = configured.stateVerbose();
        if (stateVerbose != null) {
            verbose = switch (stateVerbose.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException("--state-verbose takes True or False, not '" + stateVerbose + "'");
            };
        }
        String mode = stateOutput != null ? stateOutput : configured.stateOutput();
        // Salt skips a state that succeeded unchanged for state_output_diff whatever state_verbose says
        return new HighstateOutputter(palette, new HighstateOutputter.Options(mode,
                verbose && !configured.stateOutputDiff(), configured.stateOutputProfile()));
    }
}
