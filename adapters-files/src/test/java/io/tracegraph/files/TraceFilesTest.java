package io.tracegraph.files;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceFilesTest {
    private static final TraceFiles.Limits ONE_MIB = new TraceFiles.Limits(1 << 20, 8);

    @TempDir
    Path dir;

    @Test
    void walksANestedTarGzWithDirectoriesGzippedEntriesAndAZipContainingATar() throws IOException {
        byte[] innerTar = tar(file("deep/d.jsonl", "d"));
        byte[] innerTgz = gzip(tar(file("f.jsonl", "f")));
        byte[] zip = zip(file("inner.tar", innerTar), file("e.jsonl.gz", gzip(bytes("e"))),
                file("g.tar.gz", innerTgz));
        Path runs = write("runs.tar.gz", gzip(tar(directory("day1/"), file("day1/a.jsonl", "a"),
                file("day1/b.jsonl.gz", gzip(bytes("b"))), file("day2/c.json", "c"), file("bundle.zip", zip),
                file("notes.txt", "not a trace"))));

        Recorder recorder = new Recorder();
        TraceFiles.Summary summary = TraceFiles.walk(List.of(runs), TraceFiles.Limits.defaults(), recorder);

        String r = runs.toString();
        assertThat(recorder.traces).containsExactly(
                entry(r + "!day1/a.jsonl", "a"),
                entry(r + "!day1/b.jsonl.gz", "b"),
                entry(r + "!day2/c.json", "c"),
                entry(r + "!bundle.zip!inner.tar!deep/d.jsonl", "d"),
                entry(r + "!bundle.zip!e.jsonl.gz", "e"),
                entry(r + "!bundle.zip!g.tar.gz!f.jsonl", "f"));
        assertThat(recorder.unreadable).isEmpty();
        assertThat(summary).isEqualTo(new TraceFiles.Summary(11, 6, 4, 1, 0));
    }

    @Test
    void keepsExclamationMarksInNamesAsTheyAre() throws IOException {
        Path onDisk = write("odd!name.jsonl", "x");
        Path archive = write("a!b.tar", tar(file("c!d.jsonl", "y")));

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(onDisk, archive), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.traces).containsExactly(entry(onDisk.toString(), "x"),
                entry(archive + "!c!d.jsonl", "y"));
    }

    @Test
    void walksDirectoriesDepthFirstInTheByteOrderOfNames() throws IOException {
        for (String name : List.of("b.jsonl", "a.jsonl", "B.jsonl", "_x.jsonl", "a/z.jsonl", "a/b/c.jsonl",
                "a/B.jsonl", "~.jsonl")) {
            write("in/" + name, name);
        }

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(dir.resolve("in")), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.names()).containsExactly(Stream.of("B.jsonl", "_x.jsonl", "a/B.jsonl", "a/b/c.jsonl",
                "a/z.jsonl", "a.jsonl", "b.jsonl", "~.jsonl").map(n -> dir.resolve("in/" + n).toString())
                .toArray(String[]::new));
    }

    @Test
    void readsASymlinkedFileButDoesNotFollowASymlinkedDirectory() throws IOException {
        Path root = Files.createDirectories(dir.resolve("root"));
        write("root/real/t.jsonl", "t");
        write("elsewhere/hidden.jsonl", "h");
        Files.createSymbolicLink(root.resolve("link.jsonl"), root.resolve("real/t.jsonl"));
        Files.createSymbolicLink(root.resolve("loop"), root);
        Files.createSymbolicLink(root.resolve("out"), dir.resolve("elsewhere"));
        Files.createSymbolicLink(root.resolve("broken.jsonl"), dir.resolve("nowhere.jsonl"));

        Recorder recorder = new Recorder();
        TraceFiles.Summary summary = TraceFiles.walk(List.of(root), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.traces).containsExactly(entry(root.resolve("link.jsonl").toString(), "t"),
                entry(root.resolve("real/t.jsonl").toString(), "t"));
        assertThat(recorder.unreadable).containsExactly(root.resolve("broken.jsonl") + ": broken symbolic link");
        assertThat(summary.skipped()).isEqualTo(2);
    }

    @Test
    void followsASymlinkGivenOnTheCommandLine() throws IOException {
        write("real/t.jsonl", "t");
        Path link = Files.createSymbolicLink(dir.resolve("link"), dir.resolve("real"));

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(link), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.names()).containsExactly(link.resolve("t.jsonl").toString());
    }

    @Test
    void goesOnWithTheBatchAfterCorruptArchives() throws IOException {
        Path first = write("1.jsonl", "one");
        byte[] tgz = gzip(tar(file("a.jsonl", "a"), file("b.jsonl", "b".repeat(100_000)), file("c.jsonl", "c")));
        Path truncated = write("2.tar.gz", Arrays.copyOf(tgz, tgz.length - 40));
        Path garbage = write("3.zip", "this is not a zip archive at all".repeat(10));
        byte[] zip = zip(file("z1.jsonl", "z1"), file("z2.jsonl", "z2".repeat(50_000)), file("z3.jsonl", "z3"));
        Path cutZip = write("4.zip", Arrays.copyOf(zip, zip.length / 2));
        Path last = write("5.tar", tar(file("l.jsonl", "last")));

        Recorder recorder = new Recorder();
        TraceFiles.Summary summary = TraceFiles.walk(List.of(first, truncated, garbage, cutZip, last),
                TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.names()).startsWith(first.toString(), truncated + "!a.jsonl").contains(
                cutZip + "!z1.jsonl").endsWith(last + "!l.jsonl");
        assertThat(recorder.names()).doesNotContain(truncated + "!c.jsonl", cutZip + "!z3.jsonl");
        assertThat(recorder.unreadableNames()).containsExactly(truncated.toString(), garbage.toString(),
                cutZip.toString());
        assertThat(recorder.unreadable).allSatisfy(line -> assertThat(line).doesNotContain("\n"));
        assertThat(summary.unreadable()).isEqualTo(3);
    }

    @Test
    void readsParentAndAbsoluteEntryNamesAsDataWithoutWritingAnything() throws IOException {
        TarArchiveEntry absolute = new TarArchiveEntry("/tmp/tracegraph-evil.jsonl", true);
        Path tar = write("evil.tar", tar(file("../escape.jsonl", "up"), new Entry(absolute, bytes("abs")),
                file("../../x/../y.jsonl", "y")));
        Path zip = write("evil.zip", zip(file("../../zip-escape.jsonl", "z"), file("/etc/zip-abs.jsonl", "za")));
        List<Path> before = tree(dir);

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(tar, zip), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.traces).containsExactly(entry(tar + "!../escape.jsonl", "up"),
                entry(tar + "!/tmp/tracegraph-evil.jsonl", "abs"), entry(tar + "!../../x/../y.jsonl", "y"),
                entry(zip + "!../../zip-escape.jsonl", "z"), entry(zip + "!/etc/zip-abs.jsonl", "za"));
        assertThat(tree(dir)).isEqualTo(before);
        assertThat(dir.getParent().resolve("escape.jsonl")).doesNotExist();
        assertThat(Path.of("/tmp/tracegraph-evil.jsonl")).doesNotExist();
        assertThat(Path.of("/etc/zip-abs.jsonl")).doesNotExist();
    }

    @Test
    void refusesAGzipBombPastTheLimitAndGoesOn() throws IOException {
        byte[] bomb = gzip(new byte[50 << 20]);
        Path onDisk = write("bomb.jsonl.gz", bomb);
        Path inTar = write("bombs.tar.gz", gzip(tar(file("b.jsonl.gz", bomb), file("after.jsonl", "ok"))));

        long start = System.nanoTime();
        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(onDisk, inTar), ONE_MIB, recorder);

        assertThat(recorder.unreadable).containsExactly(onDisk + ": larger than the limit of 1048576 bytes",
                inTar + "!b.jsonl.gz: larger than the limit of 1048576 bytes");
        assertThat(recorder.names()).containsExactly(inTar + "!after.jsonl");
        assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
    }

    @Test
    void letsTheVisitorSeeTheLimitItself() throws IOException {
        Path bomb = write("bomb.jsonl.gz", gzip(new byte[10 << 20]));
        List<Long> limits = new ArrayList<>();
        List<Long> readBeforeRefusal = new ArrayList<>();

        TraceFiles.Summary summary = TraceFiles.walk(List.of(bomb), ONE_MIB, new TraceFiles.Visitor() {
            @Override
            public void trace(String name, InputStream in) {
                long read = 0;
                byte[] buffer = new byte[8192];
                try {
                    for (int n; (n = in.read(buffer)) >= 0;) {
                        read += n;
                    }
                } catch (TraceFiles.TooLargeException e) {
                    limits.add(e.limit());
                    readBeforeRefusal.add(read);
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }

            @Override
            public void unreadable(String name, String reason) {
                throw new AssertionError(name + ": " + reason);
            }
        });

        assertThat(limits).containsExactly(1L << 20);
        assertThat(readBeforeRefusal.get(0)).isLessThanOrEqualTo(1L << 20);
        assertThat(summary.unreadable()).isZero();
    }

    @Test
    void refusesAHighlyCompressedZipEntryPastTheLimit() throws IOException {
        byte[] zip = zip(file("bomb.jsonl", new byte[50 << 20]), file("after.jsonl", "ok"));
        Path onDisk = write("bomb.zip", zip);
        Path nested = write("nested.tar", tar(file("inner.zip", zip), file("later.jsonl", "later")));

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(onDisk, nested), ONE_MIB, recorder);

        assertThat(recorder.unreadable).containsExactly(onDisk + "!bomb.jsonl: larger than the limit of 1048576 bytes",
                nested + "!inner.zip!bomb.jsonl: larger than the limit of 1048576 bytes");
        assertThat(recorder.names()).containsExactly(onDisk + "!after.jsonl", nested + "!inner.zip!after.jsonl",
                nested + "!later.jsonl");
    }

    @Test
    void refusesANestedArchiveBombAsAWhole() throws IOException {
        List<Entry> zeros = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            zeros.add(file("zeros" + i + ".bin", new byte[8 << 20]));
        }
        byte[] layer = zip(zeros.toArray(Entry[]::new));
        for (int i = 0; i < 2; i++) {
            layer = zip(file("layer.zip", layer), file("layer-copy.zip", layer));
        }
        Path bomb = write("42.zip", layer);
        Path after = write("after.jsonl", "ok");

        long start = System.nanoTime();
        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(bomb, after), ONE_MIB, recorder);

        assertThat(recorder.unreadable).singleElement().asString().startsWith(bomb + ": expands to more than")
                .endsWith("refused as an archive bomb");
        assertThat(recorder.names()).containsExactly(after.toString());
        assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
    }

    @Test
    void refusesATarWhoseHeadersWouldFillTheHeap() throws IOException {
        byte[] record = paxRecord("path", "n".repeat(2 << 20) + ".jsonl");
        TarArchiveEntry pax = new TarArchiveEntry("PaxHeaders/x", TarConstants.LF_PAX_EXTENDED_HEADER_LC);
        Path tar = write("pax.tar.gz", gzip(tar(file("before.jsonl", "b"), new Entry(pax, record),
                file("x.jsonl", "x"))));

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(tar), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.names()).containsExactly(tar + "!before.jsonl");
        assertThat(recorder.unreadable).containsExactly(tar + ": tar headers of one entry larger than 1048576 bytes");
    }

    @Test
    void reportsZipEntriesWhoseCompressionIsNotAvailable() throws IOException {
        byte[] ppmd = zip(storedFile("ppmd.jsonl", "p"), storedFile("ok.jsonl", "ok"));
        setFirstMethod(ppmd, 98);
        byte[] xz = zip(storedFile("xz.jsonl", "x"), storedFile("ok.jsonl", "ok"));
        setFirstMethod(xz, 95);
        Path onDisk = write("ppmd.zip", ppmd);
        Path nested = write("nested.tar", tar(file("ppmd.zip", ppmd), file("xz.zip", xz)));

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(onDisk, nested), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.unreadable).containsExactly(
                onDisk + "!ppmd.jsonl: unsupported zip compression method PPMD",
                nested + "!ppmd.zip!ppmd.jsonl: unsupported zip compression method PPMD",
                nested + "!xz.zip!xz.jsonl: unsupported zip compression method XZ");
        assertThat(recorder.names()).containsExactly(onDisk + "!ok.jsonl", nested + "!ppmd.zip!ok.jsonl",
                nested + "!xz.zip!ok.jsonl");
    }

    @Test
    void refusesArchivesNestedDeeperThanTheLimit() throws IOException {
        byte[] deepest = zip(file("t.jsonl", "t"));
        Path archive = write("outer.zip", zip(file("one.zip", zip(file("two.zip", deepest)))));

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(archive), new TraceFiles.Limits(1 << 20, 2), recorder);

        assertThat(recorder.unreadable).containsExactly(
                archive + "!one.zip!two.zip: archives nested more than 2 deep");
        assertThat(recorder.traces).isEmpty();
    }

    @Test
    void walksTenThousandTinyEntriesQuickly() throws IOException {
        Entry[] entries = new Entry[10_000];
        for (int i = 0; i < entries.length; i++) {
            entries[i] = file(String.format("run-%05d.jsonl", i), "{\"i\":" + i + "}\n");
        }
        Path tar = write("tiny.tar.gz", gzip(tar(entries)));
        Path zip = write("tiny.zip", zip(entries));

        long start = System.nanoTime();
        Recorder recorder = new Recorder();
        TraceFiles.Summary summary = TraceFiles.walk(List.of(tar), TraceFiles.Limits.defaults(), recorder);
        long elapsed = System.nanoTime() - start;
        TraceFiles.Summary zipped = TraceFiles.walk(List.of(zip), TraceFiles.Limits.defaults(), new Recorder());

        assertThat(summary.traces()).isEqualTo(10_000);
        assertThat(recorder.traces.get(tar + "!run-09999.jsonl")).isEqualTo("{\"i\":9999}\n");
        assertThat(elapsed).isLessThan(2_000_000_000L);
        assertThat(zipped.traces()).isEqualTo(10_000);
    }

    @Test
    void skipsAndCountsFilesThatAreNeitherTracesNorArchives() throws IOException {
        write("in/a.txt", "a");
        write("in/b.csv", "b");
        write("in/c.jsonl", "c");
        write("in/D.JSONL", "d");
        write("in/e.Json.GZ", gzip(bytes("e")));
        Path tar = write("in/f.tar", tar(file("readme.md", "r"), file("g.jsonl", "g")));

        Recorder recorder = new Recorder();
        TraceFiles.Summary summary = TraceFiles.walk(List.of(dir.resolve("in")), TraceFiles.Limits.defaults(),
                recorder);

        assertThat(recorder.names()).containsExactly(dir.resolve("in/D.JSONL").toString(),
                dir.resolve("in/c.jsonl").toString(), dir.resolve("in/e.Json.GZ").toString(), tar + "!g.jsonl");
        assertThat(summary).isEqualTo(new TraceFiles.Summary(8, 4, 1, 3, 0));
    }

    @Test
    void skipsLinksAndDevicesInsideATar() throws IOException {
        TarArchiveEntry symlink = new TarArchiveEntry("link.jsonl", TarConstants.LF_SYMLINK);
        symlink.setLinkName("/etc/passwd");
        TarArchiveEntry hardlink = new TarArchiveEntry("hard.jsonl", TarConstants.LF_LINK);
        hardlink.setLinkName("real.jsonl");
        TarArchiveEntry device = new TarArchiveEntry("dev.jsonl", TarConstants.LF_CHR);
        TarArchiveEntry fifo = new TarArchiveEntry("fifo.jsonl", TarConstants.LF_FIFO);
        Path tar = write("links.tar", tar(file("real.jsonl", "r"), new Entry(symlink, new byte[0]),
                new Entry(hardlink, new byte[0]), new Entry(device, new byte[0]), new Entry(fifo, new byte[0])));

        Recorder recorder = new Recorder();
        TraceFiles.Summary summary = TraceFiles.walk(List.of(tar), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.names()).containsExactly(tar + "!real.jsonl");
        assertThat(summary.skipped()).isEqualTo(4);
    }

    @Test
    void reportsAMissingPathAndGoesOn() throws IOException {
        Path missing = dir.resolve("missing.jsonl");
        Path present = write("present.jsonl", "p");

        Recorder recorder = new Recorder();
        TraceFiles.Summary summary = TraceFiles.walk(List.of(missing, present), TraceFiles.Limits.defaults(),
                recorder);

        assertThat(recorder.unreadable).containsExactly(missing + ": no such file or directory");
        assertThat(recorder.names()).containsExactly(present.toString());
        assertThat(summary.unreadable()).isEqualTo(1);
    }

    @Test
    void decompressesGzipWhateverTheNameSays() throws IOException {
        Path misnamed = write("plain-name.jsonl", gzip(bytes("inside")));
        Path notGzip = write("named.jsonl.gz", "plain after all");

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(misnamed, notGzip), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.traces).containsExactly(entry(misnamed.toString(), "inside"),
                entry(notGzip.toString(), "plain after all"));
    }

    @Test
    void readsTarBz2AndTellsATarsCompressionByItsMagicBytes() throws IOException {
        ByteArrayOutputStream bz2 = new ByteArrayOutputStream();
        try (OutputStream out = new BZip2CompressorOutputStream(bz2)) {
            out.write(tar(file("b.jsonl", "bzip2")));
        }
        Path tarBz2 = write("a.tar.bz2", bz2.toByteArray());
        Path plainTgz = write("b.tgz", tar(file("p.jsonl", "plain")));
        Path gzippedTar = write("c.tar", gzip(tar(file("g.jsonl", "gzipped"))));

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(tarBz2, plainTgz, gzippedTar), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.traces).containsExactly(entry(tarBz2 + "!b.jsonl", "bzip2"),
                entry(plainTgz + "!p.jsonl", "plain"), entry(gzippedTar + "!g.jsonl", "gzipped"));
    }

    @Test
    void reportsACorruptGzipEntryAndGoesOnWithTheArchive() throws IOException {
        byte[] gz = gzip(bytes("x".repeat(10_000)));
        byte[] corrupt = Arrays.copyOf(gz, gz.length / 2);
        Path tar = write("mixed.tar", tar(file("bad.jsonl.gz", corrupt), file("good.jsonl", "g")));

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(tar), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.unreadableNames()).containsExactly(tar + "!bad.jsonl.gz");
        assertThat(recorder.unreadable).singleElement().asString()
                .startsWith(tar + "!bad.jsonl.gz: corrupt or truncated gzip data: ");
        assertThat(recorder.names()).containsExactly(tar + "!good.jsonl");
    }

    @Test
    void endsTheWalkWithTheVisitorsOwnFailure() throws IOException {
        Path a = write("a.jsonl", "a");
        Path b = write("b.jsonl", "b");
        IOException databaseDown = new IOException("database down");
        List<String> seen = new ArrayList<>();

        assertThatThrownBy(() -> TraceFiles.walk(List.of(a, b), TraceFiles.Limits.defaults(),
                new TraceFiles.Visitor() {
                    @Override
                    public void trace(String name, InputStream in) throws IOException {
                        seen.add(name);
                        throw databaseDown;
                    }

                    @Override
                    public void unreadable(String name, String reason) {
                        seen.add(name + ": " + reason);
                    }
                })).isSameAs(databaseDown);
        assertThat(seen).containsExactly(a.toString());
    }

    @Test
    void refusesReadsAfterTheVisit() throws IOException {
        Path a = write("a.jsonl", "a");
        List<InputStream> kept = new ArrayList<>();

        TraceFiles.walk(List.of(a), TraceFiles.Limits.defaults(), new TraceFiles.Visitor() {
            @Override
            public void trace(String name, InputStream in) {
                kept.add(in);
            }

            @Override
            public void unreadable(String name, String reason) {
            }
        });

        assertThatThrownBy(() -> kept.get(0).read()).isInstanceOf(IOException.class)
                .hasMessageContaining("after Visitor.trace returned");
    }

    @Test
    void replacesControlCharactersInEntryNames() throws IOException {
        Path tar = write("ctl.tar", tar(file("evil\nname\u001b[31m.jsonl", "e")));

        Recorder recorder = new Recorder();
        TraceFiles.walk(List.of(tar), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.names()).containsExactly(tar + "!evil?name?[31m.jsonl");
    }

    /** Reads every trace whole; lets failures of the stream out, so the walker reports them. */
    private static final class Recorder implements TraceFiles.Visitor {
        final Map<String, String> traces = new LinkedHashMap<>();
        final List<String> unreadable = new ArrayList<>();

        @Override
        public void trace(String name, InputStream in) throws IOException {
            traces.put(name, new String(in.readAllBytes(), UTF_8));
        }

        @Override
        public void unreadable(String name, String reason) {
            unreadable.add(name + ": " + reason);
        }

        List<String> names() {
            return List.copyOf(traces.keySet());
        }

        List<String> unreadableNames() {
            return unreadable.stream().map(line -> line.substring(0, line.indexOf(": "))).toList();
        }
    }

    private record Entry(Object header, byte[] data) {
    }

    private static Entry file(String name, String text) {
        return file(name, bytes(text));
    }

    private static Entry file(String name, byte[] data) {
        return new Entry(name, data);
    }

    private static Entry storedFile(String name, String text) {
        ZipArchiveEntry entry = new ZipArchiveEntry(name);
        entry.setMethod(ZipArchiveEntry.STORED);
        byte[] data = bytes(text);
        CRC32 crc = new CRC32();
        crc.update(data);
        entry.setCrc(crc.getValue());
        entry.setSize(data.length);
        return new Entry(entry, data);
    }

    /** One PAX record, {@code "<length> <key>=<value>\n"}, the length counting itself. */
    private static byte[] paxRecord(String key, String value) {
        String rest = " " + key + "=" + value + "\n";
        int length = rest.length() + 1;
        while (String.valueOf(length).length() + rest.length() != length) {
            length++;
        }
        return (length + rest).getBytes(UTF_8);
    }

    /** Sets the first entry's compression method in its local header and in the central directory. */
    private static void setFirstMethod(byte[] zip, int method) {
        zip[8] = (byte) method;
        for (int i = 0; i + 4 < zip.length; i++) {
            if (zip[i] == 'P' && zip[i + 1] == 'K' && zip[i + 2] == 1 && zip[i + 3] == 2) {
                zip[i + 10] = (byte) method;
                return;
            }
        }
        throw new AssertionError("no central directory");
    }

    private static Entry directory(String name) {
        return new Entry(new TarArchiveEntry(name), null);
    }

    private static Map.Entry<String, String> entry(String name, String text) {
        return Map.entry(name, text);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }

    private static byte[] tar(Entry... entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Entry e : entries) {
                TarArchiveEntry header = e.header() instanceof TarArchiveEntry t ? t
                        : new TarArchiveEntry((String) e.header(), true);
                if (e.data() != null && header.isFile() && !header.isSymbolicLink() && !header.isLink()) {
                    header.setSize(e.data().length);
                }
                tar.putArchiveEntry(header);
                if (e.data() != null && header.getSize() > 0) {
                    tar.write(e.data());
                }
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static byte[] zip(Entry... entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(out)) {
            for (Entry e : entries) {
                ZipArchiveEntry header = e.header() instanceof ZipArchiveEntry z ? z
                        : new ZipArchiveEntry((String) e.header());
                zip.putArchiveEntry(header);
                zip.write(e.data());
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

    private Path write(String name, String text) throws IOException {
        return write(name, bytes(text));
    }

    private Path write(String name, byte[] data) throws IOException {
        Path path = dir.resolve(name);
        Files.createDirectories(path.getParent());
        return Files.write(path, data);
    }

    private static List<Path> tree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.sorted().toList();
        }
    }
}
