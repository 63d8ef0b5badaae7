package io.jsalt.modules;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a module function may know about the minion it runs on (Salt's {@code __grains__},
 * {@code __opts__}). A function receives it by declaring a parameter of this type.
 */
public interface ModuleContext {

    /** The minion's id. */
    String minionId();

    /** The minion's grains: core grains with the static grains of its config on top. */
    Map<String, Object> grains();

    /** The minion's configuration, with Salt's key names. */
    Map<String, Object> opts();

    /** The minion's cache directory, for modules that keep files between jobs. */
    Path cachedir();
}
