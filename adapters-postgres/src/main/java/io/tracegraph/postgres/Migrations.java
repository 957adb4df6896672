package io.tracegraph.postgres;

import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.OptionalInt;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Flyway migrations this build ships ({@code db/migration/V<n>__<what>.sql} on the class path,
 * in a jar or a directory), as far as {@link Database} needs to know whether a database is up to date.
 */
final class Migrations {
    private static final String LOCATION = "db/migration";
    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__[^/]+\\.sql");
    private static volatile OptionalInt newest;

    private Migrations() {
    }

    /** The highest migration version shipped, or empty when none can be listed. */
    static OptionalInt newestVersion() {
        OptionalInt known = newest;
        if (known == null) {
            known = scan();
            newest = known;
        }
        return known;
    }

    private static OptionalInt scan() {
        try {
            List<String> names = new ArrayList<>();
            Enumeration<URL> locations = Migrations.class.getClassLoader().getResources(LOCATION);
            while (locations.hasMoreElements()) {
                names.addAll(names(locations.nextElement()));
            }
            return versions(names);
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    /** The highest version among file names such as {@code V3__path_stats.sql}. */
    static OptionalInt versions(List<String> names) {
        return names.stream()
                .map(name -> name.substring(name.lastIndexOf('/') + 1))
                .map(VERSIONED::matcher)
                .filter(Matcher::matches)
                .mapToInt(m -> Integer.parseInt(m.group(1)))
                .max();
    }

    private static List<String> names(URL location) throws IOException, URISyntaxException {
        if ("jar".equals(location.getProtocol())) {
            JarURLConnection connection = (JarURLConnection) location.openConnection();
            connection.setUseCaches(false);
            List<String> names = new ArrayList<>();
            try (JarFile jar = connection.getJarFile()) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    String name = entries.nextElement().getName();
                    if (name.startsWith(LOCATION + "/")) {
                        names.add(name);
                    }
                }
            }
            return names;
        }
        if ("file".equals(location.getProtocol())) {
            try (Stream<Path> files = Files.list(Path.of(location.toURI()))) {
                return files.map(f -> f.getFileName().toString()).toList();
            }
        }
        return List.of();
    }
}
