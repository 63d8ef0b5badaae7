package io.jsalt.master.runner;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The jsalt version of this master, as Maven wrote it into a resource at build time ({@code manage.versions}). */
final class MasterVersion {
    static final String UNKNOWN = "unknown";
    private static final String RESOURCE = "/io/jsalt/master/version.properties";

    private MasterVersion() {}

    static String current() {
        try (InputStream in = MasterVersion.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version", "");
                // an unfiltered resource (an IDE build) still holds the Maven placeholder
                if (!version.isBlank() && !version.startsWith("${")) {
                    return version;
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // a version string is not worth failing a runner for
        }
        return UNKNOWN;
    }
}
