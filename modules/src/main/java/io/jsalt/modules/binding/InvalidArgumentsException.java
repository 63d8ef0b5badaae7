package io.jsalt.modules.binding;

/**
 * The arguments of a call do not fit the function's signature: too many or too few, an unknown
 * keyword, a value that cannot be coerced. Python raises TypeError here; the registry turns it into
 * a retcode-1 result that shows the signature.
 */
public class InvalidArgumentsException extends Exception {

    private static final long serialVersionUID = 1L;

    public InvalidArgumentsException(String message) {
        super(message);
    }
}
