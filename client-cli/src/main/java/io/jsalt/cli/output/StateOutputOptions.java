package io.jsalt.cli.output;

import java.util.Locale;
import picocli.CommandLine.Option;

/** Salt's --state-output and --state-verbose, for the commands that show state runs (jsalt, jsalt-call). */
public final class StateOutputOptions {
    @Option(names = {"--state-output", "--state_output"}, paramLabel = "MODE", defaultValue = "full",
            description = "How the highstate outputter shows each state: full (default), terse, mixed (terse unless it failed), "
                    + "changes (terse unless it changed or failed); each also as *_id (the id in place of the name).")
    String stateOutput;

    @Option(names = {"--state-verbose", "--state_verbose"}, paramLabel = "True|False", defaultValue = "True",
            description = "False: the highstate outputter leaves out the states that succeeded without changes.")
    String stateVerbose;

    /** The highstate outputter these options ask for; IllegalArgumentException names a bad value. */
    public HighstateOutputter outputter(Palette palette) {
        boolean verbose = switch (stateVerbose.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("--state-verbose takes True or False, not '" + stateVerbose + "'");
        };
        return new HighstateOutputter(palette, new HighstateOutputter.Options(stateOutput, verbose, true));
    }
}
