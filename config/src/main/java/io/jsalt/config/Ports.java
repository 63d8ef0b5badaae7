package io.jsalt.config;

/** The publish and request ports share an interface, so they must differ. */
final class Ports {
    private Ports() {
    }

    /** Refuses equal ports, blaming the key the file actually set (the other one is then its default). */
    static void requireDistinct(ConfigFile config, String publishKey, int publishPort, String requestKey,
            int requestPort) {
        if (publishPort != requestPort) {
            return;
        }
        String blamed = config.has(requestKey) ? requestKey : publishKey;
        String other = blamed.equals(requestKey) ? publishKey : requestKey;
        throw config.refuse(blamed, "a port other than " + other + " (" + publishPort + ")");
    }
}
