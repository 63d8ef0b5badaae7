package io.jsalt.modules.binding;

import java.util.List;

/**
 * A module as its annotations describe it.
 *
 * @param name      the module's name ({@code test})
 * @param doc       the module's doc
 * @param functions its functions, sorted by name
 */
public record ModuleDefinition(String name, String doc, List<ModuleFunction> functions) {

    public ModuleDefinition {
        functions = List.copyOf(functions);
    }
}
