package io.jsalt.modules.builtin.pkg;

import io.jsalt.modules.api.CommandExecutionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Salt's ways of naming packages in one list: {@code name} with an optional {@code version}, or
 * {@code pkgs}, a list whose items are names or one-entry {@code {name: version}} maps.
 */
public final class PackageTargets {

    private PackageTargets() {
    }

    /** The packages a call names; {@code pkgs} wins over {@code name}, as in Salt. */
    public static List<AptCommand.Target> targets(String name, List<Object> pkgs, String version) {
        List<AptCommand.Target> targets = new ArrayList<>();
        if (pkgs != null && !pkgs.isEmpty()) {
            for (Object item : pkgs) {
                if (item instanceof Map<?, ?> map) {
                    map.forEach((key, value) -> targets.add(new AptCommand.Target(String.valueOf(key),
                            value == null || String.valueOf(value).isEmpty() ? null : String.valueOf(value))));
                } else {
                    targets.add(new AptCommand.Target(String.valueOf(item), null));
                }
            }
            return targets;
        }
        if (name == null || name.isEmpty()) {
            throw new CommandExecutionException("No package given: pass name or pkgs");
        }
        targets.add(new AptCommand.Target(name, version == null || version.isEmpty() ? null : version));
        return targets;
    }

    /** Package names given positionally, as version and latest_version take them. */
    public static List<String> names(List<Object> names) {
        if (names.isEmpty()) {
            throw new CommandExecutionException("No package name given");
        }
        List<String> checked = new ArrayList<>();
        names.forEach(name -> checked.add(AptCommand.checkName(String.valueOf(name))));
        return checked;
    }
}
