package io.jsalt.master.pillar;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExposedPillarRootsTest {
    @Test
    void aPillarRootInsideOrAroundAFileRootIsNamed() {
        Map<String, List<Path>> files = Map.of("base", List.of(Path.of("/srv/jsalt")), "dev", List.of(Path.of("/srv/dev/files")));
        assertThat(ExposedPillarRoots.find(files, Map.of("base", List.of(Path.of("/srv/jsalt/pillar"), Path.of("/srv/pillar")))))
                .containsExactly("/srv/jsalt/pillar (inside file root /srv/jsalt)");
        assertThat(ExposedPillarRoots.find(files, Map.of("dev", List.of(Path.of("/srv/dev")))))
                .containsExactly("/srv/dev (holds file root /srv/dev/files)");
    }

    @Test
    void separateFoldersAndSiblingsWithACommonPrefixAreFine() {
        Map<String, List<Path>> files = Map.of("base", List.of(Path.of("/srv/salt")));
        assertThat(ExposedPillarRoots.find(files, Map.of("base", List.of(Path.of("/srv/pillar"), Path.of("/srv/salty")))))
                .isEmpty();
    }
}
