package io.jsalt.modules;

/**
 * A module class that cannot be loaded as written: a missing annotation, an unsupported parameter
 * type, two functions with one name. It names the class or method at fault; it is an authoring bug,
 * never a consequence of what arrives on the wire.
 */
public class ModuleDefinitionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ModuleDefinitionException(String message) {
        super(message);
    }

    public ModuleDefinitionException(String message, Throwable cause) {
        super(message, cause);
    }
}
