package io.jsalt.bench.swarm;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class CryptoWarmUpTest {
    @Test
    void everyRoundRunsEachOperationAndChecksItsResult() {
        // a round counts only when its signature and tok verify, the blinding inverse is one and the AES round trip
        // gives back the load
        assertThat(CryptoWarmUp.run(3)).isEqualTo(3);
        assertThat(CryptoWarmUp.run(0)).isZero();
    }

    @Test
    void theBlindingInverseIsAnInverseEvenWhereMostValuesHaveNone() {
        // 3 * 5 * 7 * 11 * 13: more than half of the values below it share a factor with it and are drawn again
        BigInteger modulus = BigInteger.valueOf(3L * 5 * 7 * 11 * 13);
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < 200; i++) {
            BigInteger inverse = CryptoWarmUp.blindingInverse(modulus, random);
            assertThat(inverse.gcd(modulus)).isEqualTo(BigInteger.ONE);
            assertThat(inverse.modInverse(modulus).multiply(inverse).mod(modulus)).isEqualTo(BigInteger.ONE);
            assertThat(inverse).isLessThan(modulus);
        }
    }
}
