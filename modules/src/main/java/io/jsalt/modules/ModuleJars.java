package io.jsalt.modules;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The custom module jars a class loader may open. A URLClassLoader skips an unreadable jar silently, or fails on
 * it later at an unpredictable point; checking each jar first names the broken one in the log and keeps the rest.
 */
final class ModuleJars {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleJars.class);

    private ModuleJars() {
    }

    /** The URLs of the jars that open as jar files, in the given order; the others are logged and left out. */
    static List<URL> readable(List<Path> jars) {
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars == null ? List.<Path>of() : jars) {
            if (!Files.isRegularFile(jar)) {
                LOG.error("skipping extension module jar {}: not a regular file", jar);
                continue;
            }
            try (JarFile opened = new JarFile(jar.toFile())) {
                // reading the entry list is what fails on a truncated or non-zip file
                opened.stream().count();
                urls.add(jar.toUri().toURL());
            } catch (IOException | SecurityException | IllegalStateException e) {
                LOG.error("skipping extension module jar {}: {}", jar, e.toString());
            }
        }
        return urls;
    }
}
