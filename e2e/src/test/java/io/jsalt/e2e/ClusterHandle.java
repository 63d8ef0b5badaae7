package io.jsalt.e2e;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The part of {@link Cluster} that end-to-end tests in sub-packages ({@code io.jsalt.e2e.states}, ...) use, so
 * that they need not widen Cluster itself. Closing it kills every process it started.
 */
public final class ClusterHandle implements AutoCloseable {
    private final Cluster cluster;

    public ClusterHandle(Path root) throws IOException {
        this.cluster = new Cluster(root);
    }

    public Path root() {
        return cluster.root;
    }

    public void startMaster(String... extraConfigLines) throws IOException {
        cluster.startMaster(extraConfigLines);
    }

    public void startMinion(String id, String... extraConfigLines) throws IOException {
        cluster.startMinion(id, extraConfigLines);
    }

    /** Runs {@code jsalt} with the master's config and returns its exit code and output. */
    public Outcome jsalt(String... args) throws IOException, InterruptedException {
        Cluster.Result r = cluster.jsalt(args);
        return new Outcome(r.exitCode(), r.stdout(), r.stderr(), r.toString());
    }

    /** One CLI run; {@code toString} shows everything, for assertion messages. */
    public record Outcome(int exitCode, String stdout, String stderr, String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    @Override
    public void close() {
        cluster.close();
    }
}
