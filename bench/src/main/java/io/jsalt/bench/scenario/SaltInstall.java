package io.jsalt.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where real SaltStack 3006.8 runs from: {@code ../shared/salt/salt} beside the jsalt home (its README). */
final class SaltInstall {
    private SaltInstall() {
    }

    /** The {@code salt} launcher, or null when it is not there (the scenario then runs jsalt alone). */
    static Path find(Path jsaltHome) {
        if (jsaltHome == null) {
            return null;
        }
        Path salt = jsaltHome.resolve("../shared/salt/salt").normalize();
        return Files.isExecutable(salt) ? salt : null;
    }
}
