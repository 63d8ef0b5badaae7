package io.jsalt.cli.output;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Salt's {@code highstate} outputter (salt/output/highstate.py): a state run's return as a block per state
 * and a {@code Summary for <minion>} block, which the CLI uses for the returns of the state functions unless
 * the user picks another with {@code --out}. Data it cannot read as a state run is shown by the nested
 * outputter instead, as Salt falls back when an outputter fails.
 */
public final class HighstateOutputter implements Outputter {
    /** {@code --state-output} values (Salt's state_output), each also with {@code _id} (the id in place of the name). */
    static final List<String> STATE_OUTPUTS = List.of("full", "terse", "mixed", "changes");

    /**
     * Salt's state_output, state_verbose and state_output_profile.
     *
     * @param stateOutput full, terse, mixed or changes, each optionally ending in {@code _id}
     * @param verbose     false: states that succeeded without changes are not shown
     * @param profile     the Started and Duration lines and the total run time
     */
    public record Options(String stateOutput, boolean verbose, boolean profile) {
        public static final Options SALT_DEFAULTS = new Options("full", true, true);

        public Options {
            stateOutput = stateOutput.toLowerCase(Locale.ROOT);
            String base = stateOutput.endsWith("_id") ? stateOutput.substring(0, stateOutput.length() - 3) : stateOutput;
            if (!STATE_OUTPUTS.contains(base)) {
                throw new IllegalArgumentException("unknown state output '" + stateOutput
                        + "' (full, terse, mixed, changes, each also with _id, e.g. terse_id)");
            }
        }
    }

    private final Palette palette;
    private final Options options;
    private final NestedOutputter fallback;

    public HighstateOutputter(Palette palette, Options options) {
        this.palette = palette;
        this.options = options;
        this.fallback = new NestedOutputter(palette);
    }

    @Override
    public void one(PrintStream out, String minion, Object ret) {
        one(out, minion, ret, 0);
    }

    @Override
    public void one(PrintStream out, String minion, Object ret, int retcode) {
        String text;
        try {
            text = new HighstateHost(palette, options).format(minion, ret).text();
        } catch (RuntimeException e) {
            // not a state run's return (a state key without its four parts, ...): Salt shows it nested then
            fallback.one(out, minion, ret, retcode);
            return;
        }
        out.println(text);
        out.flush();
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns) {
        returns.forEach((minion, ret) -> one(out, minion, ret, 0));
    }

    @Override
    public void all(PrintStream out, Map<String, Object> returns, Map<String, Integer> retcodes) {
        returns.forEach((minion, ret) -> one(out, minion, ret, retcodes.getOrDefault(minion, 0)));
    }

    /** Salt prints a minion that did not return with its no_return outputter, whatever the job's outputter. */
    @Override
    public void noReturn(PrintStream out, String minion, String notice) {
        fallback.noReturn(out, minion, notice);
    }
}
