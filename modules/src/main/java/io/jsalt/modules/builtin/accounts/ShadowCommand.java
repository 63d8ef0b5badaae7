package io.jsalt.modules.builtin.accounts;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds one command line of shadow's account tools (useradd, userdel, usermod, groupadd, groupdel,
 * gpasswd) as an argv, never a shell string. Values travel as option arguments ({@code -s /bin/zsh}), which
 * getopt takes whatever they start with; the account names at the end come after {@code --} and are checked by
 * {@link AccountName} first, so nothing a caller passes can become an option.
 */
public final class ShadowCommand {

    private final List<String> options = new ArrayList<>();
    private final List<String> operands = new ArrayList<>();
    private final String tool;

    private ShadowCommand(String tool) {
        this.tool = tool;
    }

    public static ShadowCommand of(String tool) {
        return new ShadowCommand(tool);
    }

    /** Adds {@code flag} when {@code on}. */
    public ShadowCommand flag(String flag, boolean on) {
        if (on) {
            options.add(flag);
        }
        return this;
    }

    /** Adds {@code option value} even when the value is empty ({@code usermod -G ''} clears the groups, as Salt does). */
    public ShadowCommand optionEvenIfEmpty(String option, String value) {
        options.add(option);
        options.add(value);
        return this;
    }

    /** Adds {@code option value} when the value is given (not null, not empty). */
    public ShadowCommand option(String option, String value) {
        if (value != null && !value.isEmpty()) {
            options.add(option);
            options.add(value);
        }
        return this;
    }

    /**
     * {@code -R root}: work on the account files under that folder (useradd's chroot), when given; gpasswd spells it
     * {@code -Q}, its {@code -R} restricts the group instead.
     */
    public ShadowCommand root(AccountRoot root) {
        if (!root.isHost()) {
            options.add(tool.equals("gpasswd") ? "-Q" : "-R");
            options.add(root.path().toString());
        }
        return this;
    }

    /** An account name, checked as a user or group name. */
    public ShadowCommand account(String kind, String name) {
        operands.add(AccountName.require(kind, name));
        return this;
    }

    public List<String> argv() {
        List<String> argv = new ArrayList<>();
        argv.add(tool);
        argv.addAll(options);
        argv.add("--");
        argv.addAll(operands);
        return List.copyOf(argv);
    }
}
