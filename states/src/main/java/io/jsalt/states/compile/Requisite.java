package io.jsalt.states.compile;

/**
 * One requisite as written: {@code - cmd: foo} has type {@code cmd}, {@code - sls: web} has type {@code sls},
 * {@code - foo} has no type (it matches any state whose id or name is {@code foo}).
 *
 * @param type the state module, {@code sls}, {@code id}, or null
 */
public record Requisite(RequisiteKind kind, String type, String target) {

    /** As Salt prints it in messages: {@code require: cmd: foo}. */
    @Override
    public String toString() {
        return kind.key() + ": " + (type == null ? "" : type + ": ") + target;
    }

    /** As written in its {@code _in} form: {@code require_in: cmd: foo}. */
    public String inForm() {
        return kind.key() + "_in: " + (type == null ? "" : type + ": ") + target;
    }
}
