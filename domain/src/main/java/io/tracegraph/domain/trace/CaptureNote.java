package io.tracegraph.domain.trace;

import java.util.Objects;

/**
 * Something a reader repaired or set aside while turning its format into a trace (a partial
 * overlap it cut, a device event without a launcher, ...): a health warning, or an error when the
 * trace cannot be trusted because of it. {@code code} is stable; {@code message} is for people.
 */
public record CaptureNote(boolean error, String code, String message) {
    public CaptureNote {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }
}
