package io.jsalt.modules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExtensionJarsTest {

    private static final String GREETER = """
            package ext.demo;

            import io.jsalt.modules.ModuleContext;
            import io.jsalt.modules.api.Arg;
            import io.jsalt.modules.api.ExecutionModule;
            import io.jsalt.modules.api.SaltFunction;
            import io.jsalt.modules.api.SaltModule;

            @SaltModule(name = "greeter", doc = "Says hello.")
            public class Greeter implements ExecutionModule {
                @SaltFunction(doc = "Greets someone.")
                public String hello(@Arg("name") String name, ModuleContext context) {
                    return "hello " + name + " from " + context.minionId();
                }
            }
            """;

    private static final String CLASH = """
            package ext.clash;

            import io.jsalt.modules.api.ExecutionModule;
            import io.jsalt.modules.api.SaltFunction;
            import io.jsalt.modules.api.SaltModule;

            @SaltModule(name = "sample")
            public class Clash implements ExecutionModule {
                @SaltFunction
                public String who() {
                    return "impostor";
                }
            }
            """;

    private static final String NEEDS_HELPER = """
            package ext.needy;

            import io.jsalt.modules.api.ExecutionModule;
            import io.jsalt.modules.api.SaltFunction;
            import io.jsalt.modules.api.SaltModule;

            @SaltModule(name = "needy")
            public class Needy implements ExecutionModule {
                @SaltFunction
                public String run(Helper helper) {
                    return "never";
                }
            }
            """;

    private static final String HELPER = """
            package ext.needy;

            public class Helper {
            }
            """;

    @TempDir
    Path dir;

    private final ModuleContext context = SimpleModuleContext.builder().minionId("jar-minion").build();

    @Test
    void functionsOfAJarBecomeCallableThroughServiceLoader() throws IOException {
        Path jar = ModuleJarBuilder.build(dir, dir.resolve("greeter.jar"), Map.of("ext.demo.Greeter", GREETER));

        try (ModuleRegistry registry = ModuleRegistry.builder(context).addJars(List.of(jar)).build()) {
            assertThat(registry.call("greeter.hello", List.of("ops"))).isEqualTo(CallResult.ok("hello ops from jar-minion"));
            assertThat(registry.moduleDoc("greeter")).contains("Says hello.");
        }
    }

    @Test
    void jarModulesLoadInTheirOwnClassLoader() throws IOException {
        Path jar = ModuleJarBuilder.build(dir, dir.resolve("greeter.jar"), Map.of("ext.demo.Greeter", GREETER));

        try (ModuleRegistry registry = ModuleRegistry.builder(context).addJars(List.of(jar)).build()) {
            assertThat(registry.has("greeter.hello")).isTrue();
        }
        // the test's own class loader never sees the jar's classes
        assertThat(classVisible("ext.demo.Greeter")).isFalse();
    }

    @Test
    void aBrokenJarIsSkippedAndTheOthersStillLoad() throws IOException {
        Path good = ModuleJarBuilder.build(dir, dir.resolve("greeter.jar"), Map.of("ext.demo.Greeter", GREETER));
        Path broken = Files.writeString(dir.resolve("broken.jar"), "this is not a zip file");
        Path missing = dir.resolve("missing.jar");

        try (ModuleRegistry registry = ModuleRegistry.builder(context)
                .addJars(List.of(broken, missing, good)).build()) {
            assertThat(registry.call("greeter.hello", List.of("x")).success()).isTrue();
        }
    }

    @Test
    void aJarModuleCannotReplaceAFunctionThatIsAlreadyDefined() throws IOException {
        Path jar = ModuleJarBuilder.build(dir, dir.resolve("clash.jar"), Map.of("ext.clash.Clash", CLASH));

        try (ModuleRegistry registry = ModuleRegistry.builder(context).addModule(new SampleModule())
                .addJars(List.of(jar)).build()) {
            assertThat(registry.call("sample.who", List.of())).isEqualTo(CallResult.ok("jar-minion"));
        }
    }

    @Test
    void builtInsVisibleThroughTheParentLoaderAreNotAddedTwice() throws IOException {
        Path jar = ModuleJarBuilder.build(dir, dir.resolve("greeter.jar"), Map.of("ext.demo.Greeter", GREETER));

        try (ModuleRegistry registry = ModuleRegistry.builder(context)
                .addDiscovered(ModuleRegistry.class.getClassLoader()).addJars(List.of(jar)).build()) {
            assertThat(registry.call("test.ping", List.of())).isEqualTo(CallResult.ok(true));
            assertThat(registry.call("greeter.hello", List.of("y")).success()).isTrue();
        }
    }

    @Test
    void noJarsAddNothing() {
        try (ModuleRegistry registry = ModuleRegistry.builder(context).addModule(new SampleModule())
                .addJars(List.of()).build()) {
            assertThat(registry.moduleNames()).containsExactly("sample");
        }
    }

    @Test
    void aModuleBuiltForANewerJavaIsSkippedAndTheOtherModulesOfItsJarStillLoad() throws IOException {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("ext.clash.Clash", CLASH.replace("\"sample\"", "\"future\""));
        sources.put("ext.demo.Greeter", GREETER);
        Path built = ModuleJarBuilder.build(dir, dir.resolve("built.jar"), sources);
        // class file major version 255: this JVM answers UnsupportedClassVersionError, a LinkageError
        Path jar = rewrite(built, dir.resolve("mixed.jar"), "ext/clash/Clash.class", ExtensionJarsTest::futureVersion);

        try (ModuleRegistry registry = ModuleRegistry.builder(context).addJars(List.of(jar)).build()) {
            assertThat(registry.call("greeter.hello", List.of("z")).success()).isTrue();
            assertThat(registry.has("future.who")).isFalse();
        }
    }

    @Test
    void aModuleMissingAClassItNeedsIsSkippedAndTheOtherJarsStillLoad() throws IOException {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("ext.needy.Needy", NEEDS_HELPER);
        sources.put("ext.needy.Helper", HELPER);
        Path built = ModuleJarBuilder.build(dir, dir.resolve("needy-full.jar"), sources);
        // without Helper, describing Needy's functions raises NoClassDefFoundError
        Path needy = rewrite(built, dir.resolve("needy.jar"), "ext/needy/Helper.class", null);
        Path good = ModuleJarBuilder.build(dir, dir.resolve("greeter.jar"), Map.of("ext.demo.Greeter", GREETER));

        try (ModuleRegistry registry = ModuleRegistry.builder(context).addJars(List.of(needy)).addJars(List.of(good))
                .build()) {
            assertThat(registry.call("greeter.hello", List.of("w")).success()).isTrue();
            assertThat(registry.has("needy.run")).isFalse();
        }
    }

    @Test
    void jarsThatYieldNoModuleAreClosedAtOnce() throws IOException {
        Path built = ModuleJarBuilder.build(dir, dir.resolve("future-only.jar"),
                Map.of("ext.clash.Clash", CLASH.replace("\"sample\"", "\"future\"")));
        Path jar = rewrite(built, dir.resolve("useless.jar"), "ext/clash/Clash.class", ExtensionJarsTest::futureVersion);

        try (ModuleRegistry registry = ModuleRegistry.builder(context).addJars(List.of(jar)).build()) {
            assertThat(registry.functionNames()).isEmpty();
            assertThat(openFilesNamed(jar)).isZero();
        }
    }

    /** Copies {@code jar} with entry {@code name} changed by {@code change} (removed when it is null). */
    private static Path rewrite(Path jar, Path target, String name, java.util.function.UnaryOperator<byte[]> change)
            throws IOException {
        try (JarFile in = new JarFile(jar.toFile()); OutputStream out = Files.newOutputStream(target);
             JarOutputStream jarOut = new JarOutputStream(out)) {
            for (JarEntry entry : in.stream().toList()) {
                byte[] bytes = in.getInputStream(entry).readAllBytes();
                if (entry.getName().equals(name)) {
                    if (change == null) {
                        continue;
                    }
                    bytes = change.apply(bytes);
                }
                jarOut.putNextEntry(new JarEntry(entry.getName()));
                jarOut.write(bytes);
                jarOut.closeEntry();
            }
        }
        return target;
    }

    private static byte[] futureVersion(byte[] classFile) {
        byte[] copy = classFile.clone();
        copy[6] = 0;
        copy[7] = (byte) 255;
        return copy;
    }

    /** How many of this process's file descriptors point at {@code file} (Linux). */
    private static long openFilesNamed(Path file) throws IOException {
        Path real = file.toRealPath();
        Predicate<Path> pointsAtFile = fd -> {
            try {
                return Files.readSymbolicLink(fd).equals(real);
            } catch (IOException | UnsupportedOperationException e) {
                return false; // closed meanwhile
            }
        };
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(pointsAtFile).count();
        }
    }

    private static boolean classVisible(String name) {
        try {
            Class.forName(name, false, ExtensionJarsTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
