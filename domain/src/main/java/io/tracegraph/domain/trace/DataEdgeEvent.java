package io.tracegraph.domain.trace;

import java.util.Objects;

/**
 * A data-flow edge between two tensors that the producer recorded itself (candle-graph trace/7
 * {@code edge} with {@code edge_kind: data}), beside the call edges between spans
 * ({@link EdgeEvent}) and the data edges the graph derives from op inputs and outputs.
 */
public record DataEdgeEvent(String fromTensor, String toTensor) {
    public DataEdgeEvent {
        Objects.requireNonNull(fromTensor, "fromTensor");
        Objects.requireNonNull(toTensor, "toTensor");
    }
}
