package io.tracegraph.domain.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ComparisonIdentityTest {
    private static ComparisonIdentity identity(String implementation, String model, long batch, String pair) {
        return new ComparisonIdentity(implementation, "tinygpt/train", model, "b8-t64", "synthetic-s7", "fixed", batch,
                1, "f32", "warm", pair);
    }

    @Test
    void runsOfOtherBuildsOrPairsShareTheirConditions() {
        assertThat(identity("build-a", "tinygpt", 8, "p1").firstDifference(identity("build-b", "tinygpt", 8, null)))
                .isEmpty();
    }

    @Test
    void namesTheFirstConditionThatDiffers() {
        assertThat(identity(null, "tinygpt", 8, null).firstDifference(identity(null, "llama", 16, null)))
                .contains("model_id");
        assertThat(identity(null, "tinygpt", 8, null).firstDifference(identity(null, "tinygpt", 16, null)))
                .contains("physical_batch");
    }

    @Test
    void membersAreNamedAsInTheTraceOrWithoutTheirIdSuffix() {
        assertThat(ComparisonIdentity.memberNamed("model_id")).contains("model_id");
        assertThat(ComparisonIdentity.memberNamed("model")).contains("model_id");
        assertThat(ComparisonIdentity.memberNamed("precision")).contains("precision");
        assertThat(ComparisonIdentity.memberNamed("modelid")).isEmpty();
        assertThat(identity(null, "tinygpt", 8, null).member("physical_batch")).isEqualTo("8");
        assertThat(identity(null, "tinygpt", 8, null).member("pair_id")).isNull();
    }
}
