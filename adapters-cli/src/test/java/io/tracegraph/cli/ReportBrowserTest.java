package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Opens each report from its file in headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}, which {@code .ci/run} installs) and checks what a person would see: no
 * console error or uncaught exception, no request but the file itself, the icicle chart and the
 * timelines drawn, zooming works, and a screenshot that is not blank. Skipped, with a message, only
 * where no Chromium or ChromeDriver is installed. Screenshots go to
 * {@code target/report-screenshots} (the README's come from there).
 */
@Timeout(300)
class ReportBrowserTest {
    private static final Path CHROMIUM = firstExecutable("TRACEGRAPH_CHROMIUM", "/usr/bin/chromium",
            "/usr/bin/chromium-browser", "/usr/bin/google-chrome");
    private static final Path CHROMEDRIVER = firstExecutable("TRACEGRAPH_CHROMEDRIVER", "/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target/report-screenshots");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Selenium warns that it has no DevTools classes for this Chromium: true, and not needed here. */
    private static final Logger SELENIUM = Logger.getLogger("org.openqa.selenium");

    /** Set verdicts need a rank-sum test confirmed across every path: 5 runs a side can never be. */
    private static final int RUNS_PER_SIDE = 10;

    @TempDir
    static Path dir;
    static ChromeDriver browser;

    @BeforeAll
    static void startChromium() throws IOException {
        if (CHROMIUM == null || CHROMEDRIVER == null) {
            String message = "ReportBrowserTest skipped: no Chromium and ChromeDriver found (install Debian's chromium "
                    + "and chromium-driver, as .ci/run does, or set TRACEGRAPH_CHROMIUM and TRACEGRAPH_CHROMEDRIVER)";
            System.err.println(message);
            Assumptions.abort(message);
        }
        SELENIUM.setLevel(Level.SEVERE);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--disable-extensions", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--window-size=1280,1500", "--user-data-dir=" + Files.createDirectories(dir.resolve("profile")));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        logs.enable(LogType.PERFORMANCE, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopChromium() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void runReportDrawsItsChartsWithoutErrorsOrRequests() throws IOException {
        Path trace = dir.resolve("train.jsonl");
        SyntheticTrace.training().ops(2_500).seed(7).runId("train-demo").writeTo(trace);
        Path html = report("run.html", "report", trace.toString());

        open(html);

        long rects = number("return document.querySelectorAll('#flame svg rect').length");
        assertThat(rects).as("icicle boxes drawn").isGreaterThan(200);
        assertThat(number("return document.querySelectorAll('#flame svg text').length")).isGreaterThan(3);
        assertThat(number("return document.querySelectorAll('#memory .uplot').length")).isEqualTo(1);
        assertThat(paintedPixels("#memory canvas")).as("painted timeline pixels").isGreaterThan(5_000);
        assertThat(text("#memory .u-legend")).contains("live").contains("parameter");
        assertThat(number("return document.querySelectorAll('#tables table.data tbody tr').length")).isEqualTo(200);
        assertThat(browser.getTitle()).isEqualTo("tracegraph: " + trace);

        // Sorting a table by a column reorders its rows.
        WebElement byName = browser.findElement(By.cssSelector("#table-slowest-ops th"));
        List<String> before = column("#table-slowest-ops tbody tr td:first-child");
        byName.click();
        assertThat(byName.getAttribute("aria-sort")).isEqualTo("ascending");
        List<String> after = column("#table-slowest-ops tbody tr td:first-child");
        assertThat(after).containsExactlyInAnyOrderElementsOf(before).isNotEqualTo(before);
        assertThat(browser.executeScript("var c = arguments[0]; for (var i = 1; i < c.length; i++) {"
                + " if (c[i - 1].localeCompare(c[i]) > 0) { return false; } } return true;", after)).isEqualTo(true);

        // Hovering a box shows its numbers; clicking zooms into it.
        WebElement box = browser.findElement(By.cssSelector("#flame svg rect[data-i='2']"));
        new Actions(browser).moveToElement(box).perform();
        assertThat(text(".tooltip")).contains("total time").contains("self time").contains("bytes");
        box.click();
        assertThat(text("#flame .crumbs")).startsWith("zoomed into:");
        assertThat(number("return document.querySelectorAll('#flame svg rect').length")).isPositive();
        browser.findElement(By.cssSelector("#flame .toolbar button")).click();
        assertThat(number("return document.querySelectorAll('#flame svg rect').length")).isEqualTo(rects);
        browser.executeScript("window.scrollTo(0, 0)");

        screenshot("run.png");
        assertQuiet(html);
    }

    @Test
    void comparisonReportDrawsTreeBarsAndOverlaidTimelines() throws IOException {
        List<String> base = new ArrayList<>();
        List<String> cand = new ArrayList<>();
        for (int i = 0; i < RUNS_PER_SIDE; i++) {
            Path b = dir.resolve("base" + i + ".jsonl");
            Path c = dir.resolve("cand" + i + ".jsonl");
            SyntheticTrace.training().ops(1_500).seed(7).timingSeed(100 + i).runId("base-" + i).writeTo(b);
            SyntheticTrace.training().ops(1_500).seed(7).timingSeed(200 + i).runId("cand-" + i).slowSpan("Mlp::forward", 2.0)
                    .writeTo(c);
            base.add(b.toString());
            cand.add(c.toString());
        }
        Path html = report("diff.html", "report", "--compare", String.join(",", base), String.join(",", cand));

        open(html);

        assertThat(number("return document.querySelectorAll('#flame svg rect').length")).isGreaterThan(200);
        assertThat(number("return document.querySelectorAll('#bars svg rect.bar').length")).isEqualTo(24);
        assertThat(number("return document.querySelectorAll('#bars svg line.whisker').length")).isEqualTo(72);
        assertThat(number("return document.querySelectorAll('#memory .uplot').length")).isEqualTo(1);
        assertThat(paintedPixels("#memory canvas")).isGreaterThan(5_000);
        assertThat(text("#memory .u-legend")).contains("base cuda:0").contains("candidate cuda:0");
        assertThat(text("#bars")).contains("Mlp::forward");
        Set<String> reds = new HashSet<>();
        for (WebElement r : browser.findElements(By.cssSelector("#flame svg rect"))) {
            String fill = r.getAttribute("fill");
            if (fill.startsWith("hsl(2,")) {
                reds.add(fill);
            }
        }
        assertThat(reds).as("paths coloured as slower").isNotEmpty();

        screenshot("compare.png");
        assertQuiet(html);
    }

    @Test
    void aPrunedHundredThousandNodeReportStillDraws() throws IOException {
        Path trace = dir.resolve("big.jsonl");
        SyntheticTrace.training().ops(92_000).seed(3).writeTo(trace);
        Path html = report("big.html", "report", trace.toString());

        open(html);

        assertThat(text("#flame .note.warn")).contains("merged into");
        assertThat(number("return document.querySelectorAll('#flame svg rect').length")).isGreaterThan(200);
        assertThat(paintedPixels("#memory canvas")).isGreaterThan(5_000);
        assertThat(text("#memory")).contains("drawn as");
        assertQuiet(html);
    }

    @Test
    void namesFromTheTraceNeverBecomeMarkup() throws IOException {
        String evil = "<img src=x onerror=\"document.title='owned'\">";
        Path clean = dir.resolve("clean.jsonl");
        SyntheticTrace.training().ops(300).seed(5).device("cuda:" + evil).writeTo(clean);
        String text = Files.readString(clean).replace("\"name\":\"update\"",
                "\"name\":" + JSON.writeValueAsString("update</script>" + evil));
        Path trace = Files.writeString(dir.resolve("evil.jsonl"), text);
        Path html = report("evil.html", "report", trace.toString());
        Path diff = report("evil-diff.html", "report", "--compare", clean.toString(), trace.toString());

        for (Path page : List.of(html, diff)) {
            open(page);
            assertThat(number("return document.querySelectorAll('img, main script').length")).isZero();
            assertThat(browser.getTitle()).doesNotContain("owned");
            assertThat(text("body")).contains("cuda:" + evil);
            assertQuiet(page);
        }
    }

    @Test
    void everyTrustedConformanceSampleDrawsWithoutErrors() throws IOException {
        List<Path> samples = new ArrayList<>();
        for (String name : List.of("synthetic", "train_tiny", "train_quirks", "infer_small", "infer_quirks", "bom",
                "crlf")) {
            Path sample = dir.resolve(name + ".jsonl");
            try (InputStream in = ReportBrowserTest.class.getResourceAsStream("/conformance/" + name + ".jsonl")) {
                Files.copy(in, sample, StandardCopyOption.REPLACE_EXISTING);
            }
            samples.add(sample);
            Path html = report(name + ".html", "report", sample.toString());
            open(html);
            assertThat(number("return document.querySelectorAll('#flame svg rect').length")).as(name).isPositive();
            assertQuiet(html);
        }
        // Different programs: paths only on one side, quirks on both.
        Path html = report("quirks.html", "report", "--compare", samples.get(2).toString(), samples.get(4).toString());
        open(html);
        assertThat(number("return document.querySelectorAll('#flame svg rect.removed').length")).isPositive();
        assertQuiet(html);
    }

    private static Path report(String name, String... args) {
        Path html = dir.resolve(name);
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("-o", html.toString()));
        CliRun run = CliRun.of(all.toArray(new String[0]));
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        return html;
    }

    private static void open(Path html) {
        browser.manage().logs().get(LogType.BROWSER);
        browser.manage().logs().get(LogType.PERFORMANCE);
        browser.get(html.toUri().toString());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!"true".equals(browser.executeScript("return document.body.getAttribute('data-rendered')"))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the page never finished drawing; console: " + console());
            }
            sleep();
        }
    }

    /** No console message of level warning or worse (errors, uncaught exceptions, CSP refusals), no request but the page. */
    private static void assertQuiet(Path html) throws IOException {
        assertThat(console()).as("console messages").isEmpty();
        Set<String> urls = new HashSet<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode message = JSON.readTree(entry.getMessage()).get("message");
            if (message.get("method").asText().equals("Network.requestWillBeSent")) {
                String url = message.get("params").get("request").get("url").asText();
                if (!url.startsWith("data:")) {
                    urls.add(url);
                }
            }
        }
        assertThat(urls).as("requests").containsExactly(html.toUri().toString());
    }

    private static List<String> console() {
        List<String> messages = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.WARNING.intValue()) {
                messages.add(entry.getLevel() + " " + entry.getMessage());
            }
        }
        return messages;
    }

    private static long number(String script) {
        return ((Number) browser.executeScript(script)).longValue();
    }

    private static String text(String css) {
        return browser.findElement(By.cssSelector(css)).getText();
    }

    private static List<String> column(String css) {
        List<String> values = new ArrayList<>();
        for (WebElement cell : browser.findElements(By.cssSelector(css))) {
            values.add(cell.getText());
        }
        return values;
    }

    /** Pixels of the first canvas under {@code css} that something was painted on. */
    private static long paintedPixels(String css) {
        Object n = ((JavascriptExecutor) browser).executeScript("var c = document.querySelector(arguments[0]);"
                + "var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; var n = 0;"
                + "for (var i = 3; i < d.length; i += 4) { if (d[i] > 0) { n++; } } return n;", css);
        return ((Number) n).longValue();
    }

    /** Takes a screenshot, checks it is not blank (many colours, no colour covering nearly all of it), keeps it. */
    private static void screenshot(String name) throws IOException {
        byte[] png = browser.getScreenshotAs(OutputType.BYTES);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        java.util.Map<Integer, Integer> colours = new java.util.HashMap<>();
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                colours.merge(image.getRGB(x, y), 1, Integer::sum);
            }
        }
        int samples = ((image.getWidth() + 1) / 2) * ((image.getHeight() + 1) / 2);
        int commonest = colours.values().stream().max(Integer::compare).orElse(0);
        assertThat(colours.size()).as("distinct colours in %s", name).isGreaterThan(100);
        assertThat(commonest).as("pixels of the commonest colour in %s", name).isLessThan(samples * 9 / 10);
        Files.write(SCREENSHOTS.resolve(name), png);
    }

    private static Path firstExecutable(String env, String... candidates) {
        String given = System.getenv(env);
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        for (String c : candidates) {
            File f = new File(c);
            if (f.canExecute()) {
                return f.toPath();
            }
        }
        return null;
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
