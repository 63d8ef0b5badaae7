package io.jsalt.master.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SignInsTest {
    final SignIns signIns = new SignIns();

    @Test
    void eachStartTagCountsOncePerSignIn() {
        signIns.signedIn("web1");

        assertThat(signIns.firstStartEvent("web1", "minion_start")).isTrue();
        assertThat(signIns.firstStartEvent("web1", "salt/minion/web1/start")).isTrue();
        assertThat(signIns.firstStartEvent("web1", "minion_start")).isFalse();

        signIns.signedIn("web1");
        assertThat(signIns.firstStartEvent("web1", "minion_start")).isTrue();
    }

    @Test
    void aMinionThatNeverSignedInHasNoStartAndIsNotKnown() {
        assertThat(signIns.firstStartEvent("ghost", "minion_start")).isFalse();
        assertThat(signIns.hasSignedIn("ghost")).isFalse();
    }

    @Test
    void aMinionSeenGoneMayBePresentOnlyAfterItSignsInAgain() {
        signIns.signedIn("web1");
        assertThat(signIns.mayBePresent("web1")).isTrue();

        signIns.seenGone("web1");
        assertThat(signIns.mayBePresent("web1")).isFalse();

        signIns.signedIn("web1");
        assertThat(signIns.mayBePresent("web1")).isTrue();
    }

    @Test
    void aForgottenMinionMustSignInAgain() {
        signIns.signedIn("web1");
        signIns.forget("web1");

        assertThat(signIns.hasSignedIn("web1")).isFalse();
        assertThat(signIns.firstStartEvent("web1", "minion_start")).isFalse();
    }
}
