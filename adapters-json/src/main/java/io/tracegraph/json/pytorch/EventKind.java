package io.tracegraph.json.pytorch;

import java.util.Locale;

/**
 * What a complete ({@code X}) event stands for, from its category. Host kinds nest into the span
 * tree; the three counted device kinds are device time; the rest is read and set aside.
 */
final class EventKind {
    static final byte IGNORED = 0;
    static final byte STEP = 1;
    static final byte ANNOTATION = 2;
    static final byte CPU_OP = 3;
    static final byte PYTHON = 4;
    static final byte RUNTIME = 5;
    /** An unknown category: a host event when its thread has known host events, else ignored. */
    static final byte OTHER = 6;
    static final byte KERNEL = 7;
    static final byte MEMCPY = 8;
    static final byte MEMSET = 9;
    /** Device-side but not busy time: GPU annotations, synchronisation waits, notifiers. */
    static final byte DEVICE_OTHER = 10;

    private EventKind() {
    }

    static boolean isHost(byte kind) {
        return kind >= STEP && kind <= OTHER;
    }

    /** A host kind known to run on a host thread (OTHER is not: it is judged by its thread). */
    static boolean marksHostLane(byte kind) {
        return kind >= STEP && kind <= RUNTIME;
    }

    static boolean isDevice(byte kind) {
        return kind == KERNEL || kind == MEMCPY || kind == MEMSET;
    }

    /** Which event wins when two overlap without nesting: the lower rank is kept whole. */
    static int rank(byte kind) {
        switch (kind) {
            case ANNOTATION: return 0;
            case CPU_OP: return 1;
            case PYTHON: return 2;
            case RUNTIME: return 3;
            default: return 4;
        }
    }

    /** The kind of a category, as Kineto spells it today or in 2021 ({@code Operator}, {@code Kernel}, ...). */
    static byte ofCategory(String category) {
        if (category == null) {
            return OTHER;
        }
        String c = category.toLowerCase(Locale.ROOT);
        switch (c) {
            case "cpu_op": case "operator": return CPU_OP;
            case "python_function": case "python": return PYTHON;
            case "user_annotation": return ANNOTATION;
            case "cuda_runtime": case "cuda_driver": case "runtime": case "driver": return RUNTIME;
            case "kernel": return KERNEL;
            case "gpu_memcpy": case "memcpy": return MEMCPY;
            case "gpu_memset": case "memset": return MEMSET;
            case "trace": return IGNORED;
            case "cuda_sync": case "cuda_event": case "mtia_ccp_events": case "mtia_insight": case "mtia_counters":
            case "mlu_notifier":
                return DEVICE_OTHER;
            default:
                break;
        }
        if (c.endsWith("_user_annotation") || c.startsWith("gpu_")) {
            return DEVICE_OTHER;
        }
        if (c.endsWith("_memcpy")) {
            return MEMCPY;
        }
        if (c.endsWith("_memset")) {
            return MEMSET;
        }
        if (c.endsWith("_runtime") || c.endsWith("_driver")) {
            return RUNTIME;
        }
        return OTHER;
    }
}
