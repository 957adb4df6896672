package io.tracegraph.domain.port;

import io.tracegraph.domain.trace.TraceDocument;
import java.io.InputStream;

/**
 * Reads one trace from a byte stream (plain or gzip-compressed; JSONL, or the whole-document JSON
 * form when the source name ends in {@code .json} or {@code .json.gz}).
 *
 * <p>A malformed trace raises {@link io.tracegraph.domain.trace.MalformedTraceException} naming the
 * source, the physical line and the member at fault; a failure to read the stream raises
 * {@link java.io.UncheckedIOException}. The stream is read to the end (or to the first error) but
 * not closed.
 */
public interface TraceReader {
    TraceDocument read(String source, InputStream in);
}
