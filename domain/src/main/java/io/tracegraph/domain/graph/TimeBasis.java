package io.tracegraph.domain.graph;

/**
 * Which time a question is asked about: the host's (spans' and ops' durations on the host clock,
 * what every trace records) or the devices' (the device time of {@link DeviceTime}: the kernel time
 * attributed to a node and below it, summed over its devices). docs/decisions.md, "Host time and
 * device time".
 */
public enum TimeBasis {
    HOST,
    DEVICE;

    /** The basis as the command line and the JSON spell it: {@code host} or {@code device}. */
    public String wire() {
        return this == HOST ? "host" : "device";
    }
}
