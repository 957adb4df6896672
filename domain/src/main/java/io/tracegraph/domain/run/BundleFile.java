package io.tracegraph.domain.run;

import java.util.Objects;

/**
 * One file a candle-graph bundle lists in its {@code bundle.json}.
 *
 * @param path   the file's path in the bundle, relative, components joined by {@code /}
 *               (e.g. {@code trace.jsonl}, {@code nsight/capture.nsys-rep})
 * @param bytes  its size
 * @param sha256 lower-case hex SHA-256 of its bytes
 */
public record BundleFile(String path, long bytes, String sha256) {
    public BundleFile {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(sha256, "sha256");
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative: " + bytes);
        }
        if (sha256.length() != 64 || !sha256.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
            throw new IllegalArgumentException("sha256 must be 64 lower-case hex digits: " + sha256);
        }
    }
}
