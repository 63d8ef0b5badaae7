package io.jsalt.api.lowstate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jsalt.api.ApiException;
import org.junit.jupiter.api.Test;

/** Salt's {@code Batch.get_bnum}: how many minions run at once. */
class LocalBatchTest {
    @Test
    void aShareIsTakenOfTheMinionsThatAnsweredRoundedAsSaltDoes() {
        assertThat(LocalBatch.batchSize("50%", 5)).isEqualTo(2); // int(2.5)
        assertThat(LocalBatch.batchSize("67%", 3)).isEqualTo(2); // int(2.01)
        assertThat(LocalBatch.batchSize("10%", 3)).isEqualTo(1); // under one: ceil(0.3)
        assertThat(LocalBatch.batchSize(null, 30)).isEqualTo(3); // Salt's default 10%
        assertThat(LocalBatch.batchSize("100%", 7)).isEqualTo(7);
    }

    @Test
    void thePercentSignMayComeFirstAsSaltAndTheCliTakeIt() {
        assertThat(LocalBatch.batchSize("%50", 5)).isEqualTo(2);
        assertThat(LocalBatch.batchSize("%10", 3)).isEqualTo(1);
        assertThat(LocalBatch.batchSize(" %25 ", 8)).isEqualTo(2);
    }

    @Test
    void aCountIsTakenAsItIs() {
        assertThat(LocalBatch.batchSize(3, 10)).isEqualTo(3);
        assertThat(LocalBatch.batchSize("12", 10)).isEqualTo(12);
    }

    @Test
    void anythingElseIsABadRequest() {
        for (Object bad : new Object[] {"lots", "0", "-1", "-5%", "%-5", "%", "%%", "", "1%0", "%x", "NaN%", "%Infinity"}) {
            assertThatThrownBy(() -> LocalBatch.batchSize(bad, 10)).as(String.valueOf(bad)).isInstanceOf(ApiException.class)
                    .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(400));
        }
    }
}
