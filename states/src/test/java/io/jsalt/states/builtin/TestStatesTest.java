package io.jsalt.states.builtin;

import static io.jsalt.states.TestCalls.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.states.run.StateResult;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestStatesTest {
    @TempDir
    Path root;

    @Test
    void nopSucceedsWithoutChanges() {
        StateResult r = TestStates.nop(call(root, false, "x"));
        assertThat(r).isEqualTo(new StateResult(true, java.util.Map.of(), "Success!"));
    }

    @Test
    void succeedWithChangesPretendsAChangeAndOnlyPredictsItInTestMode() {
        StateResult real = TestStates.succeedWithChanges(call(root, false, "x"));
        assertThat(real.result()).isTrue();
        assertThat(real.changes()).containsKey("testing");
        StateResult test = TestStates.succeedWithChanges(call(root, true, "x"));
        assertThat(test.result()).isNull();
        assertThat(test.changes()).containsKey("testing");
    }

    @Test
    void failWithoutChangesFailsExceptInTestMode() {
        assertThat(TestStates.failWithoutChanges(call(root, false, "x")).result()).isFalse();
        assertThat(TestStates.failWithoutChanges(call(root, true, "x")).result()).isNull();
    }

    @Test
    void configurableTestStateReturnsWhatItIsTold() {
        StateResult r = TestStates.configurable(call(root, false, "x", "changes", false, "result", false, "comment", "told"));
        assertThat(r).isEqualTo(new StateResult(false, java.util.Map.of(), "told"));
        assertThat(TestStates.configurable(call(root, true, "x", "changes", true)).result()).isNull();
        assertThat(TestStates.configurable(call(root, true, "x", "changes", false)).result()).isTrue();
        assertThatThrownBy(() -> TestStates.configurable(call(root, false, "x", "result", "Random")))
                .hasMessageContaining("Random");
        assertThatThrownBy(() -> TestStates.nop(call(root, false, "x", "bogus", 1)))
                .hasMessageContaining("unexpected keyword argument 'bogus'");
    }
}
