package io.tracegraph.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/** File operations on a tracegraph home: owner-only files, atomic replacement, readable reasons. */
final class HomeFiles {
    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private HomeFiles() {
    }

    /** Creates {@code file} readable and writable by its owner only; an existing one is left as it is. */
    static void createOwnerOnly(Path file) throws IOException {
        try {
            Files.createFile(file, attributes(file, OWNER_FILE));
        } catch (FileAlreadyExistsException e) {
            // fine
        }
    }

    /** Creates {@code dir} (and its missing parents, those also owner-only) if it does not exist. */
    static void createOwnerOnlyDirectory(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return;
        }
        Path parent = absolute.getParent();
        if (parent != null && !Files.exists(parent)) {
            createOwnerOnlyDirectory(parent);
        }
        try {
            Files.createDirectory(absolute, attributes(absolute, OWNER_DIRECTORY));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(absolute)) {
                throw e;
            }
        }
    }

    /** Replaces {@code file} with {@code content}, owner-only, so readers see the old or the new file. */
    static void writeOwnerOnly(Path file, String content) throws IOException {
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temp);
        Files.createFile(temp, attributes(temp, OWNER_FILE));
        try {
            Files.writeString(temp, content, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    static boolean ownerOnly(Path file) throws IOException {
        if (!posix(file)) {
            return true;
        }
        return OWNER_FILE.containsAll(Files.getPosixFilePermissions(file));
    }

    static void makeOwnerOnly(Path file) throws IOException {
        if (posix(file)) {
            Files.setPosixFilePermissions(file, OWNER_FILE);
        }
    }

    static void makeOwnerOnlyDirectory(Path dir) throws IOException {
        if (posix(dir)) {
            Files.setPosixFilePermissions(dir, OWNER_DIRECTORY);
        }
    }

    static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /** What was appended to {@code file} since {@code offset}, at most the last 64 KiB of it. */
    static String readFrom(Path file, long offset) {
        try (InputStream in = Files.newInputStream(file)) {
            long size = Files.size(file);
            long from = Math.max(offset, size - (64 << 10));
            in.skipNBytes(Math.max(0, from));
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    static void deleteRecursively(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new DatabaseException("cannot remove " + dir + ": " + reason(e), e);
        }
    }

    /** Why an I/O operation failed, in words a user can act on ("No space left on device", ...). */
    static String reason(Throwable e) {
        if (e instanceof AccessDeniedException denied) {
            return "permission denied" + (denied.getFile() == null ? "" : " on " + denied.getFile());
        }
        if (e instanceof NoSuchFileException missing) {
            return "no such file: " + missing.getFile();
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason() + (fs.getFile() == null ? "" : " (" + fs.getFile() + ")");
        }
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    private static boolean posix(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        return (dir == null ? file : dir).getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static FileAttribute<?>[] attributes(Path file, Set<PosixFilePermission> permissions) {
        return posix(file) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
                : new FileAttribute<?>[0];
    }
}
