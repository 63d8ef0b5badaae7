package io.jsalt.cli.daemon;

import java.nio.file.Path;

/**
 * Another process for {@link PidFileTest}: takes the pid file given, prints "locked", and holds it until
 * its stdin closes. fcntl locks are per process, so only a second JVM shows what a second daemon sees.
 */
public final class PidFileHolder {
    private PidFileHolder() {}

    public static void main(String[] args) throws Exception {
        try (PidFile pid = PidFile.acquire(Path.of(args[0]), ProcessHandle.current().pid())) {
            System.out.println("locked");
            System.out.flush();
            System.in.readAllBytes();
        }
    }
}
