package io.tracegraph.cli.bench;

import io.tracegraph.files.TraceFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Input discovery on the inputs whose time {@code TraceFilesTest} asserted before (unit tests assert
 * no times): 10,000 tiny traces in a tar.gz and in a zip (bound: 2 s a walk), a gzip bomb of
 * 50 MiB of zeros refused at a 1 MiB limit, and a nested zip bomb (a "42.zip" of two layers)
 * refused as such (bound: 5 s each). {@code bench/trace-files} runs it and checks the bounds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class TraceFilesBenchmark {
    @Param({"tiny-tar-gz", "tiny-zip", "gzip-bomb", "zip-bomb"})
    public String input;

    private Path dir;
    private Path file;
    private TraceFiles.Limits limits;

    @Setup(Level.Trial)
    public void write() throws IOException {
        dir = Files.createTempDirectory("tracegraph-bench-files");
        limits = TraceFiles.Limits.defaults();
        switch (input) {
            case "tiny-tar-gz" -> file = Files.write(dir.resolve("tiny.tar.gz"), gzip(tinyTar()));
            case "tiny-zip" -> file = Files.write(dir.resolve("tiny.zip"), tinyZip());
            case "gzip-bomb" -> {
                file = Files.write(dir.resolve("bomb.jsonl.gz"), gzip(new byte[50 << 20]));
                limits = new TraceFiles.Limits(1 << 20, limits.maxNesting());
            }
            default -> {
                byte[] layer = zip(new String[] {"zeros0.bin", "zeros1.bin", "zeros2.bin", "zeros3.bin"},
                        new byte[8 << 20]);
                for (int i = 0; i < 2; i++) {
                    layer = zip(new String[] {"layer.zip", "layer-copy.zip"}, layer);
                }
                file = Files.write(dir.resolve("42.zip"), layer);
                limits = new TraceFiles.Limits(1 << 20, limits.maxNesting());
            }
        }
    }

    @Benchmark
    public long walk() throws IOException {
        AtomicLong seen = new AtomicLong();
        TraceFiles.walk(List.of(file), limits, new TraceFiles.Visitor() {
            @Override
            public void trace(String name, InputStream in) throws IOException {
                seen.addAndGet(in.readAllBytes().length + 1);
            }

            @Override
            public void unreadable(String name, String reason) {
                seen.incrementAndGet();
            }
        });
        if (seen.get() == 0) {
            throw new IllegalStateException(input + ": the walk saw nothing");
        }
        return seen.get();
    }

    @TearDown(Level.Trial)
    public void clean() throws IOException {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    private static byte[] tinyTar() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            for (int i = 0; i < 10_000; i++) {
                byte[] data = ("{\"i\":" + i + "}\n").getBytes(StandardCharsets.UTF_8);
                TarArchiveEntry entry = new TarArchiveEntry(String.format("run-%05d.jsonl", i));
                entry.setSize(data.length);
                tar.putArchiveEntry(entry);
                tar.write(data);
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static byte[] tinyZip() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(out)) {
            for (int i = 0; i < 10_000; i++) {
                zip.putArchiveEntry(new ZipArchiveEntry(String.format("run-%05d.jsonl", i)));
                zip.write(("{\"i\":" + i + "}\n").getBytes(StandardCharsets.UTF_8));
                zip.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static byte[] zip(String[] names, byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(out)) {
            for (String name : names) {
                zip.putArchiveEntry(new ZipArchiveEntry(name));
                zip.write(data);
                zip.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }
}
