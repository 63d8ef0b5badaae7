package io.jsalt.states.builtin;

import io.jsalt.states.run.StateFunctions;

/** Every state function jsalt ships. */
public final class BuiltinStates {
    private BuiltinStates() {
    }

    public static StateFunctions all() {
        StateFunctions functions = new StateFunctions();
        TestStates.register(functions);
        FileStates.register(functions);
        CmdStates.register(functions);
        ModuleStates.register(functions);
        UserStates.register(functions);
        GroupStates.register(functions);
        PkgStates.register(functions);
        ServiceStates.register(functions);
        CronStates.register(functions);
        SupervisorStates.register(functions);
        return functions;
    }
}
