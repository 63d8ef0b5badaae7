package io.jsalt.modules.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.modules.ModuleRegistry;
import io.jsalt.modules.SimpleModuleContext;
import org.junit.jupiter.api.Test;

class BuiltInDiscoveryOfFileServicePkgTest {

    @Test
    void theFileServiceAndPkgModulesAreFoundThroughServiceLoader() {
        ModuleRegistry registry = ModuleRegistry.builtIn(SimpleModuleContext.builder().minionId("d").build());

        assertThat(registry.functionNames()).contains("file.read", "file.stats", "file.stat", "file.replace",
                "file.line_count", "service.start", "service.get_enabled", "pkg.list_pkgs", "pkg.list_upgrades");
        assertThat(registry.doc("file.replace")).get().asString().contains("unified diff");
        assertThat(registry.signature("file.write")).contains("file.write(path, *args, follow_symlinks=False)");
    }
}
