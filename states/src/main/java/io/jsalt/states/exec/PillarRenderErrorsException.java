package io.jsalt.states.exec;

import io.jsalt.states.StatesException;
import java.util.List;

/**
 * A state run refused because the master's pillar says some of it did not render ({@code _errors}): Salt's state
 * functions stop there rather than apply a configuration rendered with part of the pillar missing.
 */
final class PillarRenderErrorsException extends StatesException {
    /** Salt's EX_PILLAR_FAILURE. */
    static final int RETCODE_PILLAR_FAILURE = 5;

    private final List<String> errors;

    PillarRenderErrorsException(List<String> errors) {
        super("Pillar failed to render");
        this.errors = List.copyOf(errors);
    }

    /** What a run returns: Salt's words, then each error. */
    List<String> runAnswer() {
        List<String> answer = new java.util.ArrayList<>();
        answer.add("Pillar failed to render with the following messages:");
        answer.addAll(errors);
        return answer;
    }

    /** What a show_* function returns: Salt's CommandExecutionError with the errors as its info. */
    String showAnswer() {
        StringBuilder text = new StringBuilder("ERROR: Pillar failed to render. Additional info follows:\n\n");
        errors.forEach(e -> text.append("- ").append(e).append('\n'));
        return text.toString().stripTrailing();
    }
}
