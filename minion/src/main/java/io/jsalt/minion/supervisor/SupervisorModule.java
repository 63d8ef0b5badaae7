package io.jsalt.minion.supervisor;

import io.jsalt.modules.api.SaltModule;

/** {@link SupervisorFunctions} under jsalt's own name, {@code supervisor.status} and so on. */
@SaltModule(name = "supervisor", doc = SupervisorFunctions.MODULE_DOC)
public final class SupervisorModule extends SupervisorFunctions {
    public SupervisorModule(Supervisor supervisor) {
        super(supervisor);
    }
}
