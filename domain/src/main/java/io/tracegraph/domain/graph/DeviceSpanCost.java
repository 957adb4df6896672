package io.tracegraph.domain.graph;

/** An entry of the slowest-spans-by-device-time list: a span's device self time on one device. */
public record DeviceSpanCost(String id, String name, String device, long selfTimeNs) {
}
