package io.tracegraph.domain.trace;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** Every member, in the trace's spelling and order. */
    public static final List<String> MEMBERS = List.of("implementation_id", "workload_id", "model_id", "config_id",
            "data_id", "seed_policy", "physical_batch", "accumulation_steps", "precision", "device_state", "pair_id");

    /**
     * The members that runs must share to be compared (candle-graph's "conditions"): all but
     * {@code implementation_id}, which names the build under test and so differs between the sides
     * of a comparison, and {@code pair_id}, a caller's pairing key.
     */
    public static final List<String> CONDITIONS = List.of("workload_id", "model_id", "config_id", "data_id",
            "seed_policy", "physical_batch", "accumulation_steps", "precision", "device_state");

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

    /**
     * The members with their values as text (numbers in decimal), in {@link #MEMBERS} order; the
     * optional members that are not declared are left out.
     */
    public Map<String, String> members() {
        Map<String, String> members = new LinkedHashMap<>();
        if (implementationId != null) {
            members.put("implementation_id", implementationId);
        }
        members.put("workload_id", workloadId);
        members.put("model_id", modelId);
        members.put("config_id", configId);
        members.put("data_id", dataId);
        members.put("seed_policy", seedPolicy);
        members.put("physical_batch", Long.toString(physicalBatch));
        members.put("accumulation_steps", Long.toString(accumulationSteps));
        members.put("precision", precision);
        members.put("device_state", deviceState);
        if (pairId != null) {
            members.put("pair_id", pairId);
        }
        return Collections.unmodifiableMap(members);
    }

    /** The value of a member of {@link #MEMBERS} as text, or {@code null} when it is not declared. */
    public String member(String name) {
        if (!MEMBERS.contains(name)) {
            throw new IllegalArgumentException("no comparison identity member " + name);
        }
        return members().get(name);
    }
}
