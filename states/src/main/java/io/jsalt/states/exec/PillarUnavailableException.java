package io.jsalt.states.exec;

import io.jsalt.states.StatesException;

/** A state run that could not start: the master sent no pillar for it (no answer, a refusal, no master at all). */
final class PillarUnavailableException extends StatesException {
    PillarUnavailableException(String reason) {
        super("The state run did not start: " + reason);
    }
}
