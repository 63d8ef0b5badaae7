package io.jsalt.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SuggestedCommandTest {
    @Test
    void theConfigFolderTheUserRanWithIsPartOfTheCommand() {
        assertThat(SuggestedCommand.of(Path.of("sandbox/conf/master"), "jsalt-run", "jobs.lookup_jid", "20261124224649924091"))
                .isEqualTo("jsalt-run -c sandbox/conf/master jobs.lookup_jid 20261124224649924091");
    }

    @Test
    void theDefaultFolderIsLeftOutAsTheUserTypedNoDashC() {
        assertThat(SuggestedCommand.of(Path.of("/etc/jsalt"), "jsalt-run", "jobs.lookup_jid", "1"))
                .isEqualTo("jsalt-run jobs.lookup_jid 1");
    }

    @Test
    void wordsAShellWouldSplitOrExpandAreQuoted() {
        assertThat(SuggestedCommand.of(Path.of("/tmp/my conf"), "jsalt-event", "salt/job/*"))
                .isEqualTo("jsalt-event -c '/tmp/my conf' 'salt/job/*'");
        assertThat(SuggestedCommand.quote("it's")).isEqualTo("'it'\\''s'");
        assertThat(SuggestedCommand.quote("")).isEqualTo("''");
        assertThat(SuggestedCommand.quote("a$b")).isEqualTo("'a$b'");
    }
}
