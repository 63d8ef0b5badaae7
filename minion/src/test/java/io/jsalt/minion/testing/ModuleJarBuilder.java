package io.jsalt.minion.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds a custom execution-module jar as an operator would: one {@code @SaltModule} class compiled with
 * javax.tools against the test class path, and its {@code META-INF/services/io.jsalt.modules.api.ExecutionModule}
 * entry. The module is {@code <module>.<function>()} returning the given text.
 */
public final class ModuleJarBuilder {
    private ModuleJarBuilder() {
    }

    /** Writes {@code jar}; {@code work} is a scratch folder for the source and classes. */
    public static Path build(Path jar, Path work, String module, String function, String answer) throws IOException {
        String pkg = "custom." + module;
        String className = Character.toUpperCase(module.charAt(0)) + module.substring(1) + "Module";
        Path src = work.resolve("src").resolve(pkg.replace('.', '/')).resolve(className + ".java");
        Path classes = work.resolve("classes");
        Files.createDirectories(src.getParent());
        Files.createDirectories(classes);
        Files.writeString(src, """
                package %s;

                import io.jsalt.modules.api.ExecutionModule;
                import io.jsalt.modules.api.SaltFunction;
                import io.jsalt.modules.api.SaltModule;

                @SaltModule(name = "%s", doc = "A custom module built by a test.")
                public final class %s implements ExecutionModule {
                    @SaltFunction(doc = "Answers a fixed text.")
                    public String %s() {
                        return "%s";
                    }
                }
                """.formatted(pkg, module, className, function, answer));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        boolean ok = javac.getTask(errors, null, null,
                List.of("-classpath", apiLocation(), "-d", classes.toString(), "--release", "17"),
                null, javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(src.toFile())).call();
        if (!ok) {
            throw new IllegalStateException("the test module does not compile: " + errors);
        }
        Files.createDirectories(jar.toAbsolutePath().getParent());
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry("META-INF/services/io.jsalt.modules.api.ExecutionModule"));
            out.write((pkg + "." + className + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            try (Stream<Path> walk = Files.walk(classes)) {
                for (Path cls : walk.filter(Files::isRegularFile).sorted().toList()) {
                    out.putNextEntry(new JarEntry(classes.relativize(cls).toString().replace('\\', '/')));
                    out.write(Files.readAllBytes(cls));
                    out.closeEntry();
                }
            }
        }
        return jar;
    }

    /**
     * Like {@link #build}, with the module's class file marked for a Java far newer than any (major version
     * 255), as a jar built for a newer JDK than the minion's: loading it raises UnsupportedClassVersionError.
     */
    public static Path buildForFutureJava(Path jar, Path work, String module, String function) throws IOException {
        Path plain = build(work.resolve("plain.jar"), work, module, function, "never");
        Files.createDirectories(jar.toAbsolutePath().getParent());
        try (java.util.jar.JarFile in = new java.util.jar.JarFile(plain.toFile());
             OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            for (JarEntry entry : in.stream().toList()) {
                byte[] bytes = in.getInputStream(entry).readAllBytes();
                if (entry.getName().endsWith(".class")) {
                    bytes[6] = 0;
                    bytes[7] = (byte) 255;
                }
                out.putNextEntry(new JarEntry(entry.getName()));
                out.write(bytes);
                out.closeEntry();
            }
        }
        return jar;
    }

    /** Where the module API classes are (a jar or a classes folder): all a custom module compiles against. */
    private static String apiLocation() {
        try {
            return Path.of(io.jsalt.modules.api.ExecutionModule.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
