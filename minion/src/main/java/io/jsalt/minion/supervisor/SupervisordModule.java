package io.jsalt.minion.supervisor;

import io.jsalt.modules.api.SaltModule;

/** {@link SupervisorFunctions} under Salt's module name, so Salt's scripts and states call it as they are. */
@SaltModule(name = "supervisord", doc = SupervisorFunctions.MODULE_DOC)
public final class SupervisordModule extends SupervisorFunctions {
    public SupervisordModule(Supervisor supervisor) {
        super(supervisor);
    }
}
