package io.tracegraph.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The corpora of hostile traces on the test class path, copied into a directory of the test's own
 * so that the commands read them as files: {@code bad-traces} (malformed, from the adapters-json
 * test jar) and {@code untrusted-traces} (well-formed but structurally untrusted, spec section 3).
 * Each case {@code NAME.*} has a {@code NAME.expected} sidecar whose first line is the expected
 * one-line error.
 */
final class HostileCorpus {
    private HostileCorpus() {
    }

    /** One case: the trace file and its expected one-line error, with the file's path as source. */
    record Case(String name, Path file, String message, boolean prefixOnly, List<String> codes) {
        /** Whether {@code actual} (without its {@code error: } prefix) is this case's error. */
        boolean matches(String actual) {
            return prefixOnly ? actual.startsWith(message) : actual.equals(message);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * The malformed traces, copied into {@code target}; cases that need a reader setting of their
     * own ({@code max-line-bytes:}) are left out (and not copied).
     */
    static List<Case> malformed(Path target) {
        return cases("bad-traces", target, true);
    }

    /** The structurally untrusted traces, copied into {@code target}. */
    static List<Case> untrusted(Path target) {
        return cases("untrusted-traces", target, false);
    }

    private static List<Case> cases(String corpus, Path target, boolean sourcePrefixed) {
        try {
            Files.createDirectories(target);
            copy(corpus, target);
            List<Case> cases = new ArrayList<>();
            try (Stream<Path> files = Files.list(target)) {
                for (Path file : files.sorted().collect(Collectors.toList())) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".expected")) {
                        continue;
                    }
                    String stem = name.endsWith(".jsonl.gz") ? name.substring(0, name.length() - ".jsonl.gz".length())
                            : name.substring(0, name.lastIndexOf('.'));
                    List<String> sidecar = Files.readAllLines(target.resolve(stem + ".expected"), StandardCharsets.UTF_8);
                    if (sidecar.stream().anyMatch(l -> l.startsWith("max-line-bytes:"))) {
                        // A case for a reader with a lower line limit: not hostile at the default one.
                        Files.delete(file);
                        continue;
                    }
                    String message = sidecar.get(0);
                    if (sourcePrefixed) {
                        if (!message.startsWith(name + ":")) {
                            throw new IllegalStateException(name + ": sidecar does not start with the file name");
                        }
                        message = file + message.substring(name.length());
                    }
                    boolean prefixOnly = message.endsWith("...");
                    if (prefixOnly) {
                        message = message.substring(0, message.length() - 3);
                    }
                    List<String> codes = sidecar.stream().filter(l -> l.startsWith("codes: "))
                            .flatMap(l -> Stream.of(l.substring("codes: ".length()).split(",\\s*")))
                            .collect(Collectors.toList());
                    cases.add(new Case(name, file, message, prefixOnly, codes));
                }
            }
            return cases;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies a class-path directory (on disk, or inside a test jar) into {@code target}. */
    private static void copy(String corpus, Path target) throws IOException {
        URL url = HostileCorpus.class.getResource("/" + corpus);
        if (url == null) {
            throw new IllegalStateException("/" + corpus + " is not on the test class path");
        }
        URI uri;
        try {
            uri = url.toURI();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        if (!"jar".equals(uri.getScheme())) {
            copyFiles(Path.of(uri), target);
            return;
        }
        FileSystem jar;
        boolean opened = false;
        try {
            jar = FileSystems.newFileSystem(uri, Map.of());
            opened = true;
        } catch (FileSystemAlreadyExistsException e) {
            jar = FileSystems.getFileSystem(uri);
        }
        try {
            copyFiles(jar.provider().getPath(uri), target);
        } finally {
            if (opened) {
                jar.close();
            }
        }
    }

    private static void copyFiles(Path source, Path target) throws IOException {
        try (Stream<Path> files = Files.list(source)) {
            for (Path file : files.collect(Collectors.toList())) {
                Files.copy(file, target.resolve(file.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
