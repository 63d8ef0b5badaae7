package io.jsalt.config;

import java.util.List;
import java.util.Locale;

/**
 * How state runs are shown by the highstate outputter, with Salt's keys and defaults: the master's for {@code jsalt},
 * the minion's for {@code jsalt-call}; {@code --state-output} and {@code --state-verbose} override them.
 *
 * @param stateOutput        {@code state_output}: full (default), terse, mixed, changes, or one of those with
 *                           {@code _id}; Salt's {@code filter} is refused (the outputter has no such mode)
 * @param stateVerbose       {@code state_verbose}: false leaves out states that succeeded without changes
 * @param stateOutputDiff    {@code state_output_diff}: true leaves them out as well (Salt's older key for the same)
 * @param stateOutputProfile {@code state_output_profile}: the Started/Duration lines and the total run time
 */
public record StateOutputSettings(String stateOutput, boolean stateVerbose, boolean stateOutputDiff,
        boolean stateOutputProfile) {
    public static final StateOutputSettings DEFAULTS = new StateOutputSettings("full", true, false, true);
    /** The modes jsalt's highstate outputter has, as Salt spells them. */
    public static final List<String> MODES = List.of("full", "terse", "mixed", "changes", "full_id", "terse_id",
            "mixed_id", "changes_id");

    static StateOutputSettings read(ConfigFile config) {
        String expected = "one of " + String.join(", ", MODES);
        String mode;
        try {
            mode = config.string("state_output", DEFAULTS.stateOutput).toLowerCase(Locale.ROOT);
        } catch (ConfigException e) {
            throw config.refuse("state_output", expected);
        }
        if (!MODES.contains(mode)) {
            throw config.refuse("state_output", expected);
        }
        return new StateOutputSettings(mode, config.bool("state_verbose", DEFAULTS.stateVerbose),
                config.bool("state_output_diff", DEFAULTS.stateOutputDiff),
                config.bool("state_output_profile", DEFAULTS.stateOutputProfile));
    }

    /** Whether a state that succeeded without changes is shown (Salt skips it for either key). */
    public boolean showsUnchanged() {
        return stateVerbose && !stateOutputDiff;
    }
}
