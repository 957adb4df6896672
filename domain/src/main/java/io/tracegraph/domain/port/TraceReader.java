package io.tracegraph.domain.port;

import io.tracegraph.domain.trace.TraceDocument;
import java.io.InputStream;

/**
 * Reads one trace from a byte stream (plain or gzip-compressed) in the format it reads. Which
 * reader a trace needs is told by input discovery from the trace's content ({@link TraceFormat}).
 *
 * <p>A malformed trace raises {@link io.tracegraph.domain.trace.MalformedTraceException} naming the
 * source, the physical line and the member at fault; a failure to read the stream raises
 * {@link java.io.UncheckedIOException}. The stream is read to the end (or to the first error) but
 * not closed.
 */
public interface TraceReader {
    TraceDocument read(String source, InputStream in);
}
