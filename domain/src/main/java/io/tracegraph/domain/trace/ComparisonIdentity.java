package io.tracegraph.domain.trace;

import java.util.Objects;
import java.util.Optional;

/**
 * What a run must share with another to be compared with it, as its producer declared it
 * (candle-graph trace/7 {@code meta.comparison_identity}; {@code implementationId} from trace/8).
 *
 * @param implementationId the implementation or build under test, or {@code null}
 * @param pairId a caller-owned pairing key, or {@code null}
 */
public record ComparisonIdentity(
        String implementationId,
        String workloadId,
        String modelId,
        String configId,
        String dataId,
        String seedPolicy,
        long physicalBatch,
        long accumulationSteps,
        String precision,
        String deviceState,
        String pairId) {

    public ComparisonIdentity {
        Objects.requireNonNull(workloadId, "workloadId");
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(configId, "configId");
        Objects.requireNonNull(dataId, "dataId");
        Objects.requireNonNull(seedPolicy, "seedPolicy");
        Objects.requireNonNull(precision, "precision");
        Objects.requireNonNull(deviceState, "deviceState");
        if (physicalBatch < 0 || accumulationSteps < 0) {
            throw new IllegalArgumentException("physicalBatch and accumulationSteps must be >= 0");
        }
    }

    /** The first member without a usable value, in the original's words (trace/10 rule); empty if none. */
    public Optional<String> problem() {
        String[][] required = {
            {"workload_id", workloadId}, {"model_id", modelId}, {"config_id", configId}, {"data_id", dataId},
            {"seed_policy", seedPolicy}, {"precision", precision}, {"device_state", deviceState},
        };
        for (String[] member : required) {
            if (RustText.isBlank(member[1])) {
                return Optional.of("comparison identity " + member[0] + " must not be empty");
            }
        }
        String[][] optional = {{"implementation_id", implementationId}, {"pair_id", pairId}};
        for (String[] member : optional) {
            if (member[1] != null && RustText.isBlank(member[1])) {
                return Optional.of("comparison identity " + member[0] + " must not be empty when declared");
            }
        }
        if (physicalBatch <= 0) {
            return Optional.of("comparison identity physical_batch must be greater than zero");
        }
        if (accumulationSteps <= 0) {
            return Optional.of("comparison identity accumulation_steps must be greater than zero");
        }
        return Optional.empty();
    }
}
