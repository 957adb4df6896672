package io.tracegraph.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A {@link LeaseHolder} running in its own JVM, driven from a test. */
final class ServerProcess implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    private final Path errors;

    private ServerProcess(Process process, Path errors) {
        this.process = process;
        this.errors = errors;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    static ServerProcess start(Path home, String name) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path errors = home.resolveSibling(name + ".err");
        Process process = new ProcessBuilder(List.of(java.toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                "-cp", classPath, LeaseHolder.class.getName(), home.toString()))
                .redirectError(errors.toFile())
                .start();
        return new ServerProcess(process, errors);
    }

    /** Waits for the child to hold its lease; returns the server's port. */
    int awaitReady() throws Exception {
        String line = readLine();
        if (line == null || !line.startsWith("READY ")) {
            throw new AssertionError("child did not acquire: " + line + "\n" + errors());
        }
        return Integer.parseInt(line.substring("READY ".length()).trim());
    }

    void closeLease() throws Exception {
        in.write("close\n");
        in.flush();
        String line = readLine();
        if (!"CLOSED".equals(line)) {
            throw new AssertionError("child did not close its lease: " + line + "\n" + errors());
        }
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            throw new AssertionError("child did not exit\n" + errors());
        }
    }

    /** SIGKILL, as {@code kill -9} would. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(20, TimeUnit.SECONDS);
    }

    private String readLine() throws InterruptedException, ExecutionException {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("child said nothing for 60 s\n" + errors());
        }
    }

    String errors() {
        try {
            return Files.exists(errors) ? Files.readString(errors) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
