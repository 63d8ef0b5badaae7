package io.jsalt.master.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.master.events.EventBus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The master's bus tells when each minion last proved itself: only events a minion must prove its id for count. */
class LastSeenTest {
    private final EventBus bus = new EventBus();
    private final LastSeen seen = new LastSeen(Clock.fixed(Instant.ofEpochMilli(1_795_573_062_500L), ZoneOffset.UTC));

    LastSeenTest() {
        bus.addListener(seen);
    }

    @Test
    void aReturnAStartAndASupervisorReportEachMarkTheirMinionSeen() {
        bus.fire("salt/job/20261127235157833687/ret/web-01", Map.of("id", "web-01", "return", true));
        bus.fire("salt/minion/web-02/start", Map.of("id", "web-02"));
        bus.fire("minion_start", Map.of("id", "web-03"));
        bus.fire("jsalt/supervisor/web-04/app/RUNNING", Map.of("id", "web-04"));

        assertThat(seen.all()).containsOnlyKeys("web-01", "web-02", "web-03", "web-04").containsEntry("web-01", 1_795_573_062.5);
    }

    @Test
    void eventsAnyoneCanCauseDoNotMakeAMinionLookAlive() {
        // a sign-in can be asked with a public key alone; keys, publications and hooks are the master's doing
        bus.fire("salt/auth", Map.of("id", "web-01", "act", "accept", "result", true));
        bus.fire("salt/key", Map.of("id", "web-01", "act", "accept"));
        bus.fire("salt/job/20261127235157833687/new", Map.of("minions", List.of("web-01")));
        bus.fire("salt/netapi/hook/deploy", Map.of("id", "web-01"));
        bus.fire("custom/event", Map.of("id", "web-01"));
        bus.fire("salt/job/20261127235157833687/ret/../etc", Map.of());

        assertThat(seen.all()).isEmpty();
    }

    @Test
    void aReturnsTagIsReadAsTheRegularExpressionOfItsFormWouldReadIt() {
        java.util.regex.Pattern form = java.util.regex.Pattern.compile("salt/job/[0-9]+/ret/([^/]+)");
        for (String tag : List.of("salt/job/20261127235157833687/ret/web-01", "salt/job/1/ret/a", "salt/job/1/ret/a b\nc",
                "salt/job//ret/web-01", "salt/job/12a/ret/web-01", "salt/job/12/ret/", "salt/job/12/ret/a/b", "salt/job/12/ret",
                "salt/job/12/rets/a", "salt/job/\u0661/ret/a", "salt/job/12/ret//", "salt/job/")) {
            java.util.regex.Matcher m = form.matcher(tag);
            assertThat(LastSeen.returnerOf(tag)).as(tag).isEqualTo(m.matches() ? m.group(1) : null);
        }
    }

    @Test
    void aMinionWhoseKeyIsGoneIsForgotten() {
        bus.fire("salt/minion/web-01/start", Map.of("id", "web-01"));
        seen.forget("web-01");

        assertThat(seen.all()).isEmpty();
    }
}
