package dev.riffle.gateway;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium, driven by Selenium through Debian's chromedriver: one browser per
 * test class (starting one costs about a second). Missing binaries fail the test, naming
 * {@code bin/test}, which installs them: a console test that silently skipped would prove nothing.
 */
final class HeadlessChromium implements AutoCloseable {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    static HeadlessChromium start() {
        List<String> missing = new ArrayList<>();
        for (Path binary : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(binary)) {
                missing.add(binary.toString());
            }
        }
        if (!missing.isEmpty()) {
            fail("The web console's browser tests need Debian's chromium and chromium-driver, and " + missing
                    + " is missing: run bin/test, which installs them when they are missing (or apt-get install -y "
                    + "chromium chromium-driver)");
        }
        Path profile;
        try {
            profile = Files.createTempDirectory("riffle-console-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // As root in a container Chromium needs --no-sandbox; the networking flags keep it from
        // calling home (this machine's network is closed, and refused connections slow it down).
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--window-size=1280,1000", "--user-data-dir=" + profile);
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, Level.ALL.getName()));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        return new HeadlessChromium(driver, profile);
    }

    ChromeDriver driver() {
        return driver;
    }

    void open(String url) {
        driver.get(url);
    }

    /** Waits up to {@code seconds} for an element, failing with {@code what} when it never comes. */
    WebElement await(String what, int seconds, By by) {
        return new WebDriverWait(driver, Duration.ofSeconds(seconds)).withMessage(what)
                .until(d -> d.findElements(by).stream().findFirst().orElse(null));
    }

    /** Waits until {@code condition} (a JavaScript expression) is true. */
    void awaitTrue(String what, int seconds, String condition) {
        new WebDriverWait(driver, Duration.ofSeconds(seconds)).withMessage(what)
                .until(d -> Boolean.TRUE.equals(((JavascriptExecutor) d).executeScript("return !!(" + condition + ");")));
    }

    Object script(String script, Object... arguments) {
        return driver.executeScript(script, arguments);
    }

    /**
     * Saves the whole page (the window grown to its height, up to 4,000 px, for the shot) as
     * {@code target/console-screenshots/NAME.png}.
     */
    Path screenshot(String name) {
        Dimension window = driver.manage().window().getSize();
        long height = (Long) driver.executeScript("return document.documentElement.scrollHeight;");
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            driver.manage().window().setSize(new Dimension(window.getWidth(), (int) Math.min(4_000, Math.max(height + 120,
                    window.getHeight()))));
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            driver.manage().window().setSize(window);
        }
    }

    /** What the page logged at SEVERE since the last call (script errors, refused resources, CSP violations). */
    List<String> severeLogs() {
        List<String> severe = new ArrayList<>();
        for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue()) {
                severe.add(entry.getMessage());
            }
        }
        return severe;
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit(); // ends Chromium and chromedriver
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
