package io.jsalt.modules;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The jsalt version a minion reports in {@code test.version} and the {@code jsaltversion} grain. */
public final class JsaltVersion {

    static final String FALLBACK = "0.1.0";
    private static final String RESOURCE = "/io/jsalt/modules/version.properties";

    private JsaltVersion() {
    }

    /** The jar's Implementation-Version, else the version Maven wrote into a resource, else {@value #FALLBACK}. */
    public static String current() {
        String fromManifest = JsaltVersion.class.getPackage().getImplementationVersion();
        if (fromManifest != null && !fromManifest.isBlank()) {
            return fromManifest;
        }
        try (InputStream in = JsaltVersion.class.getResourceAsStream(RESOURCE)) {
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
            // fall through to the fallback: a version string is not worth failing a call for
        }
        return FALLBACK;
    }
}
