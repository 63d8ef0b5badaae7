package io.jsalt.master.pillar;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pillar folders that the file server would serve: a pillar root inside a file root (or holding one) puts every
 * minion's secrets within reach of every minion ({@code cp.get_file salt://...}). Salt does not check this; jsalt
 * says so at start, naming the folders.
 */
public final class ExposedPillarRoots {
    private ExposedPillarRoots() {
    }

    /** One line per pillar root that overlaps a file root, e.g. {@code /srv/jsalt/pillar (inside file root /srv/jsalt)}. */
    public static List<String> find(Map<String, List<Path>> fileRoots, Map<String, List<Path>> pillarRoots) {
        List<String> exposed = new ArrayList<>();
        for (List<Path> pillars : pillarRoots.values()) {
            for (Path pillar : pillars) {
                Path p = pillar.toAbsolutePath().normalize();
                for (List<Path> files : fileRoots.values()) {
                    for (Path file : files) {
                        Path f = file.toAbsolutePath().normalize();
                        if (p.startsWith(f)) {
                            exposed.add(p + " (inside file root " + f + ")");
                        } else if (f.startsWith(p)) {
                            exposed.add(p + " (holds file root " + f + ")");
                        }
                    }
                }
            }
        }
        return exposed.stream().distinct().toList();
    }
}
