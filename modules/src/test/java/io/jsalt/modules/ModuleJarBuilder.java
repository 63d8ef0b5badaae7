package io.jsalt.modules;

import io.jsalt.modules.api.SaltModule;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Compiles module sources and packs them with their services file into a jar, so that the classes exist only in
 * that jar and not on the test class path (a class the parent loader can see would never come from the jar).
 */
final class ModuleJarBuilder {

    private ModuleJarBuilder() {
    }

    /**
     * Builds {@code jar} from {@code sources} (binary class name -> Java source); every class is listed in
     * META-INF/services/io.jsalt.modules.api.ExecutionModule.
     */
    static Path build(Path workDir, Path jar, Map<String, String> sources) throws IOException {
        Path src = Files.createDirectories(workDir.resolve("src-" + jar.getFileName()));
        Path classes = Files.createDirectories(workDir.resolve("classes-" + jar.getFileName()));
        List<String> arguments = new ArrayList<>(List.of("-d", classes.toString(), "-classpath", apiLocation()));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            arguments.add(file.toString());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler.run(null, null, null, arguments.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("test module sources do not compile");
        }
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out);
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                jarOut.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                jarOut.write(Files.readAllBytes(file));
                jarOut.closeEntry();
            }
            jarOut.putNextEntry(new JarEntry("META-INF/services/io.jsalt.modules.api.ExecutionModule"));
            jarOut.write((String.join("\n", sources.keySet()) + "\n").getBytes(StandardCharsets.UTF_8));
            jarOut.closeEntry();
        }
        return jar;
    }

    private static String apiLocation() {
        try {
            return Path.of(SaltModule.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
