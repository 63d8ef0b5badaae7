package io.jsalt.client.example;

import io.jsalt.client.EventSubscription;
import io.jsalt.client.TagPattern;
import java.io.PrintStream;
import java.nio.file.Path;

/** Prints one line per job return the master receives, until the master stops. */
public final class PrintJobReturns {
    public static void main(String[] args) throws Exception {
        Path sockDir = Path.of(args.length > 0 ? args[0] : "/var/run/jsalt/master");
        watch(sockDir, System.out);
    }

    /** Returns normally only when the subscription is closed; throws when the master went away. */
    public static void watch(Path sockDir, PrintStream out) throws Exception {
        TagPattern returns = TagPattern.glob("salt/job/*/ret/*");
        try (EventSubscription subscription = EventSubscription.subscribe(sockDir, returns, event -> {
            Object minion = event.data().get("id");
            out.println(minion + " answered job " + event.data().get("jid") + ": " + event.data().get("return"));
        })) {
            subscription.done().join(); // CompletionException when the master stops
        }
    }
}
