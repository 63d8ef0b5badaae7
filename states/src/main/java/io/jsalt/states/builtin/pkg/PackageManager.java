package io.jsalt.states.builtin.pkg;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the pkg states need from a package system: what is installed, what the repositories offer, and the four
 * changes. Every change throws {@link io.jsalt.states.StatesException} with the tool's complaint when it fails.
 */
public interface PackageManager {

    /** The installed packages, name to version. */
    Map<String, String> installed();

    /** Packages removed but whose configuration files are left (dpkg's {@code rc}), which a purge still changes. */
    Set<String> configRemnants();

    /** The version an install would bring for each name, {@code ""} when none is offered. */
    Map<String, String> candidates(List<String> names);

    /** Reads the repositories' indexes again ({@code apt-get update}). */
    void refresh();

    /** Installs from the repositories; a null version means the candidate. */
    void install(Map<String, String> targets);

    /** Installs package files. */
    void installFiles(List<Path> files);

    /** The package name and version inside a package file. */
    Map.Entry<String, String> describeFile(Path file);

    void remove(List<String> names);

    void purge(List<String> names);
}
