package io.jsalt.bench.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CryptoWarmUpTest {
    @Test
    void everyRoundRunsEachOperationAndChecksItsResult() {
        // a round counts only when its signature and tok verify and the AES round trip gives back the load
        assertThat(CryptoWarmUp.run(3)).isEqualTo(3);
        assertThat(CryptoWarmUp.run(0)).isZero();
    }
}
