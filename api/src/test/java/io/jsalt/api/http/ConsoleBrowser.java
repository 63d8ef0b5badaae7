package io.jsalt.api.http;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.awaitility.core.ConditionTimeoutException;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven through Debian's chromedriver (both named by path, so Selenium Manager never
 * looks for or downloads a browser or a driver), with a fresh profile in a temp folder. Screenshots go to
 * {@code target/console-screenshots} (the test artifacts; the ones in docs/ are copies of these).
 */
final class ConsoleBrowser implements AutoCloseable {
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final ChromeDriverService service;
    private final ChromeDriver driver;

    ConsoleBrowser(Path profile) {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1180,760", "--user-data-dir=" + profile.toAbsolutePath());
        try {
            driver = new ChromeDriver(service, options);
        } catch (RuntimeException e) {
            service.stop();
            throw e;
        }
    }

    void open(String url) {
        driver.get(url);
    }

    String url() {
        return driver.getCurrentUrl();
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** The text of the first element the selector finds, or "" when there is none. */
    String text(String css) {
        List<WebElement> found = all(css);
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Runs a script that calls its last argument with its result (a promise's outcome, say). */
    Object asyncJs(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeAsyncScript(script, args);
    }

    /** Replaces the value of a form field as a user would (clear, then type). */
    void type(String css, String value) {
        WebElement field = find(css);
        field.clear();
        field.sendKeys(value);
    }

    /** Waits until the condition holds (the page changes while we look: a stale element is another try). */
    void waitFor(String what, Callable<Boolean> condition) {
        try {
            await(what).atMost(WAIT).pollInterval(Duration.ofMillis(100)).pollInSameThread().ignoreExceptions().until(condition);
        } catch (ConditionTimeoutException e) {
            // what the page showed when we gave up, for the report: a screenshot and the console's status line
            screenshot("failed-" + what.replaceAll("[^A-Za-z0-9]+", "-"));
            throw new AssertionError("waited in vain for " + what + "; the console's status: '" + text("#status") + "'", e);
        }
    }

    void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
    }
}
