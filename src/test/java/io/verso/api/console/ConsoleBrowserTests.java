package io.verso.api.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.verso.support.IntegrationTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser: headless Chromium from Debian's packages (chromium, chromium-driver;
 * .ci/run installs them) driven by Selenium against the running service, the way a user clicks
 * and types. Screenshots of each page land in target/console-screenshots/.
 */
class ConsoleBrowserTests extends IntegrationTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = Path.of("target", "console-screenshots");
    private static final Pattern COMMITTED = Pattern.compile("Committed as commit (\\d+)");

    private static WebDriver browser;
    private static Path profile;

    private WebDriverWait wait;

    /** True while a test wants the page without the suite's credentials. */
    private boolean signedOut;

    @BeforeEach
    void openBrowser() throws IOException {
        boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!present && System.getenv("CI") == null) {
            Assumptions.abort("Chromium or chromedriver missing: apt-get install -y chromium chromium-driver (.ci/run does)");
        }
        assertThat(present).as("chromium and chromedriver installed by .ci/run").isTrue();
        if (browser == null) {
            profile = Files.createTempDirectory("verso-chromium");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM.toFile());
            options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
            options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + profile);
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
            browser = new ChromeDriver(service, options);
        }
        wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        wait.ignoring(StaleElementReferenceException.class); // React re-renders between a find and a read
        Files.createDirectories(SHOTS);
    }

    /** A script error anywhere on the way fails the test, even when the page still showed what it checked. */
    @AfterEach
    void noScriptErrors() {
        if (browser != null) {
            assertThat(browserLog()).as("browser log").noneMatch(line -> line.contains("Uncaught"));
        }
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.quit();
            browser = null;
        }
    }

    @Test
    void theFourWritesOfTheConceptPageReadAtAGlanceOnTheKeysTimeline() {
        String balances = table("balances");
        open("/#/sql");
        long created = runStatement("CREATE TABLE " + balances + " (chain_id BIGINT, address TEXT, token TEXT, "
                + "amount NUMERIC(38,0), updated_at TIMESTAMP(3), balance_index BIGINT, balance_version BIGINT, "
                + "PRIMARY KEY (chain_id, address, token), ATTRIBUTE GROUP holding (amount, updated_at, balance_index, "
                + "balance_version) VALID BY (balance_index) REVISION BY (balance_version)) VERSIONED");

        // The concept page's four writes of one key, in its arrival order: index 100, 200, then a late
        // 150 with a high version (loses on arrival), then 200 again with a higher version.
        String upsert = "UPSERT INTO " + balances + " (chain_id, address, token, amount, updated_at, balance_index, "
                + "balance_version) VALUES (1, '0x9c2e4f1a', 'USDC', %s, '2026-10-01 12:00:00.000', %s, %s) "
                + "ATTRIBUTE GROUP holding";
        long c1 = runStatement(upsert.formatted(101, 100, 1));
        assertThat(receipt("current")).isEqualTo("1");
        long c2 = runStatement(upsert.formatted(102, 200, 1));
        long c3 = runStatement(upsert.formatted(103, 150, 9));
        assertThat(receipt("lost")).as("write 3 loses on arrival").isEqualTo("1");
        assertThat(receipt("current")).isEqualTo("0");
        long c4 = runStatement(upsert.formatted(104, 200, 2));
        assertThat(created).isLessThan(c1);
        screenshot("statements-receipt");

        // The Tables page lists the table with its mode and row count, and reads it now.
        open("/#/tables/" + balances);
        waitForText(By.cssSelector("[data-testid=rows-status]"), "read at commit " + c4);
        assertThat(cell("rows-grid", 0, "amount")).isEqualTo("104");
        WebElement entry = wait.until(d -> d.findElement(By.cssSelector(".table-list a[aria-current=page]")));
        assertThat(entry.getText()).contains(balances).contains("VERSIONED");
        wait.until(d -> entry.findElement(By.className("count")).getText().equals("1"));
        screenshot("tables");

        // Its row's timeline link opens the key's story.
        browser.findElement(By.cssSelector("[data-testid=rows-grid] tbody th button")).click();
        wait.until(d -> d.getCurrentUrl().contains("#/story/" + balances));
        WebElement versions = wait.until(d -> d.findElement(By.cssSelector("[data-testid=versions-holding]")));
        List<String> rows = versions.findElements(By.cssSelector("tbody tr")).stream().map(WebElement::getText).toList();
        // Greatest position first: 200/2 (current), 200/1, 150/9 (lost on arrival), 100/1.
        assertThat(rows).hasSize(4);
        assertThat(rows.get(0)).startsWith("balance_index 200 · balance_version 2").contains("current");
        assertThat(rows.get(1)).startsWith("balance_index 200 · balance_version 1").contains("superseded");
        assertThat(rows.get(2)).startsWith("balance_index 150 · balance_version 9").contains("lost on arrival");
        assertThat(rows.get(3)).startsWith("balance_index 100 · balance_version 1").contains("superseded");
        assertThat(versions.findElement(By.cssSelector("tbody tr:nth-child(2)")).getText())
                .contains(c2 + " " + c2 + " " + c4); // written in c2, winner from c2 until c4
        assertThat(browser.findElement(By.cssSelector("[data-testid=story-holding] canvas")).getAttribute("aria-label"))
                .contains("balance_index 150 · balance_version 9: written in commit " + c3 + ", lost on arrival");
        screenshot("story");

        // The commit slider, moved with the keyboard, re-reads the row at each commit.
        WebElement slider = wait.until(d -> d.findElement(By.id("story-commit-slider")));
        slider.sendKeys(Keys.HOME);
        long[] commits = {c1, c2, c3, c4};
        String[] amounts = {"101", "102", "102", "104"};
        for (int i = 0; i < commits.length; i++) {
            if (i > 0) {
                slider.sendKeys(Keys.ARROW_RIGHT);
            }
            long commit = commits[i];
            waitForText(By.cssSelector("[data-testid=story-commit] output"), "commit " + commit + " ·");
            wait.until(d -> cell("row-at", 0, "amount").equals(amounts[commit == c1 ? 0 : commit == c2 ? 1 : commit == c3 ? 2 : 3]));
            assertThat(browser.findElement(By.cssSelector("[data-testid=versions-holding] tr[aria-current=true]")).getText())
                    .as("the winner at commit %d is marked", commit)
                    .startsWith(i == 0 ? "balance_index 100" : i == 3 ? "balance_index 200 · balance_version 2"
                            : "balance_index 200 · balance_version 1");
            if (i == 2) {
                screenshot("story-at-commit-3");
            }
        }

        // The same slider on the Tables page reads the table AS OF the picked commit.
        open("/#/tables/" + balances);
        waitForText(By.cssSelector("[data-testid=rows-status]"), "read at commit " + c4);
        WebElement rowsSlider = wait.until(d -> d.findElement(By.id("rows-commit-slider")));
        rowsSlider.sendKeys(Keys.HOME);
        waitForText(By.cssSelector("[data-testid=rows-status]"), "(as of commit " + created + ")");
        screenshot("tables-as-of-created");
        wait.until(d -> d.findElements(By.cssSelector("[data-testid=rows-grid] tbody td.empty")).size() == 1);
        for (int i = 0; i < commits.length; i++) {
            rowsSlider.sendKeys(Keys.ARROW_RIGHT);
            waitForText(By.cssSelector("[data-testid=rows-status]"), "(as of commit " + commits[i] + ")");
            int at = i;
            wait.until(d -> cell("rows-grid", 0, "amount").equals(amounts[at]));
        }
        assertAllControlsLabelled();

        // A query on the Statements page re-runs as of each commit picked on its slider.
        open("/#/sql");
        WebElement editor = editor();
        editor.sendKeys(Keys.chord(Keys.CONTROL, "a"), "SELECT amount, balance_index FROM " + balances);
        editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
        waitForText(By.cssSelector("[data-testid=results] .status"), "Read at commit " + c4);
        assertThat(cell("result-0", 0, "amount")).isEqualTo("104");
        WebElement sqlSlider = wait.until(d -> d.findElement(By.id("sql-commit-slider")));
        for (int i = commits.length - 2; i >= 0; i--) {
            sqlSlider.sendKeys(Keys.ARROW_LEFT);
            waitForText(By.cssSelector("[data-testid=results] .status"), "reads as of commit " + commits[i]);
            int at = i;
            wait.until(d -> cell("result-0", 0, "amount").equals(amounts[at]));
        }
        screenshot("statements-as-of");
    }

    @Test
    void anErrorShowsAtItsLineAndColumnInTheEditor() {
        open("/#/sql");
        WebElement editor = editor();
        editor.sendKeys(Keys.chord(Keys.CONTROL, "a"), "SHOW TABLES;", Keys.ENTER, "SELECT amount FROM no_such_table_here");
        editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
        WebElement problem = wait.until(d -> d.findElement(By.cssSelector(".problem")));
        assertThat(problem.getText()).contains("UNKNOWN_TABLE").contains("line 2, column 20");
        WebElement marked = wait.until(d -> d.findElement(By.cssSelector(".cm-content .cm-lintRange-error")));
        assertThat(marked.getText()).isEqualTo("no_such_table_here");
        screenshot("statements-error");
        assertAllControlsLabelled();

        // The statement is kept in this browser's recent list, and a click puts it back.
        browser.navigate().refresh();
        WebElement recent = wait.until(d -> d.findElement(By.cssSelector(".recent li button")));
        assertThat(recent.getText()).contains("no_such_table_here");
    }

    @Test
    void theDiffViewMarksChangedCellsAndTheOpenTableFollowsNewCommits() {
        String prices = table("prices");
        sql.write("CREATE TABLE " + prices + " (symbol TEXT PRIMARY KEY, price NUMERIC(20,8), note TEXT, seq BIGINT)"
                + " VERSIONED VALID BY (seq)");
        long before = sql.write("UPSERT INTO " + prices + " VALUES ('BTC', 100.5, 'a', 1), ('ETH', 20, 'b', 1)");
        long after = sql.write("UPSERT INTO " + prices + " VALUES ('BTC', 1234567890.12345678, 'a', 2), ('SOL', 3, 'c', 1)");

        open("/#/tables/" + prices + "/diff");
        wait.until(d -> !d.findElements(By.cssSelector("#diff-to option[value='" + after + "']")).isEmpty());
        new Select(browser.findElement(By.id("diff-from"))).selectByValue(Long.toString(before));
        new Select(browser.findElement(By.id("diff-to"))).selectByValue(Long.toString(after));
        waitForText(By.cssSelector("[data-testid=diff-status]"),
                "commit " + before + " → " + after + ": 1 added, 0 removed, 1 changed");
        WebElement changedRow = browser.findElement(By.cssSelector("[data-testid=diff-grid] tr.diff-changed"));
        List<WebElement> marked = changedRow.findElements(By.cssSelector("td.changed-cell"));
        assertThat(marked).extracting(e -> e.getAttribute("data-column")).containsExactlyInAnyOrder("price", "seq");
        // Every digit of the NUMERIC survives: values are shown as the service sent them.
        assertThat(changedRow.findElement(By.cssSelector("td[data-column=price]")).getText())
                .startsWith("1234567890.12345678").contains("was 100.50000000");
        assertThat(changedRow.findElement(By.cssSelector("td[data-column=note]")).getAttribute("class"))
                .doesNotContain("changed-cell");
        assertThat(browser.findElement(By.cssSelector("[data-testid=diff-grid] tr.diff-added")).getText()).contains("SOL");
        screenshot("diff");

        // Live: the open table and the commit log show a new commit without a reload.
        open("/#/tables/" + prices);
        waitForText(By.cssSelector("[data-testid=rows-status]"), "read at commit " + after);
        long later = sql.write("UPSERT INTO " + prices + " VALUES ('DOGE', 0.1, 'd', 1)");
        waitForText(By.cssSelector("[data-testid=rows-status]"), "4 rows · read at commit " + later);
        js("location.hash = '#/commits'"); // as the header's link does: no reload
        waitForText(By.cssSelector("[data-testid=latest-commit]"), "Latest commit " + later);
        assertThat(browser.findElement(By.cssSelector("[data-testid=commits-grid] tbody tr")).getText())
                .startsWith(Long.toString(later)).contains(prices + " (1)");
        screenshot("commits");
        assertAllControlsLabelled();

        // A tombstone on the key's timeline: ordered like any write, it is the winner, and the key
        // has no row after it.
        long deleted = sql.write("DELETE FROM " + prices + " WHERE symbol = 'ETH' AT (seq = 5)");
        open("/#/story/" + prices + "?key=ETH");
        WebElement versions = wait.until(d -> d.findElement(By.cssSelector("[data-testid=versions-default]")));
        wait.until(d -> versions.findElements(By.cssSelector("tbody tr")).size() == 2);
        assertThat(versions.findElement(By.cssSelector("tbody tr:first-child")).getText())
                .startsWith("seq 5 " + deleted + " " + deleted + " now tombstone (current)");
        waitForText(By.cssSelector("[data-testid=row-at-empty]"), "No row for this key at commit " + deleted);
        screenshot("story-tombstone");
    }

    @Test
    void swaggerUiAndGraphiqlRunFromTheJarWithoutOtherHosts() {
        open("/swagger-ui.html");
        waitForText(By.cssSelector(".swagger-ui .info .title"), "Verso");
        wait.until(d -> !d.findElements(By.cssSelector(".opblock-summary-path[data-path='/v1/sql']")).isEmpty());
        screenshot("swagger-ui");
        assertOnlyThisServiceWasAsked();

        open("/graphiql?path=/graphql");
        wait.until(d -> !d.findElements(By.cssSelector(".graphiql-container .graphiql-editor")).isEmpty());
        // Its default query runs against this service's /graphql (clicked again until it answers: before
        // GraphiQL has finished starting, a click does nothing).
        new WebDriverWait(browser, Duration.ofSeconds(30), Duration.ofSeconds(3))
                .ignoring(StaleElementReferenceException.class).ignoring(NoSuchElementException.class)
                .until(d -> {
                    if (d.findElement(By.cssSelector(".graphiql-response")).getText().contains("\"_commit\"")) {
                        return true;
                    }
                    if (d.findElements(By.cssSelector(".graphiql-response .graphiql-spinner")).isEmpty()) {
                        d.findElement(By.cssSelector(".graphiql-execute-button")).click();
                    }
                    return false;
                });
        screenshot("graphiql");
        assertOnlyThisServiceWasAsked();

        // The console links to both.
        open("/");
        assertThat(browser.findElement(By.linkText("REST API")).getAttribute("href")).endsWith("/swagger-ui.html");
        assertThat(browser.findElement(By.linkText("GraphiQL")).getAttribute("href")).endsWith("/graphiql");
    }

    @Test
    void theSignInTokenTravelsOnEveryCallAndStaysInTheTab() {
        browser.get("http://localhost:" + port + "/");
        js("sessionStorage.removeItem('verso.token')");
        signedOut = true;
        try {
            signIn();
        } finally {
            signedOut = false;
        }
    }

    private void signIn() {
        open("/#/commits");
        WebElement box = wait.until(d -> d.findElement(By.id("token")));
        box.sendKeys("test-token-123", Keys.ENTER);
        wait.until(d -> !d.findElements(By.xpath("//button[text()='Sign out']")).isEmpty());
        // Record what the page sends from now on.
        js("window.__auth = []; const f = window.fetch; window.fetch = (u, i) => { "
                + "window.__auth.push(new Headers(i && i.headers).get('Authorization')); return f(u, i); };");
        wait.until(d -> ((Number) js("return window.__auth.length")).intValue() > 0);
        assertThat((List<?>) js("return window.__auth")).allMatch("Bearer test-token-123"::equals);
        assertThat(js("return sessionStorage.getItem('verso.token')")).isEqualTo("test-token-123");
        assertThat(js("return localStorage.getItem('verso.token')")).isNull();
        browser.findElement(By.xpath("//button[text()='Sign out']")).click();
        wait.until(d -> !d.findElements(By.id("token")).isEmpty());
        assertThat(js("return sessionStorage.getItem('verso.token')")).isNull();
    }

    private void open(String path) {
        browser.get("http://localhost:" + port + path);
        // The shared context runs with security on: sign in with the suite's admin key, as a user would once.
        if (js("return sessionStorage.getItem('verso.token')") == null && !signedOut) {
            js("sessionStorage.setItem('verso.token', '" + io.verso.support.TestSecurity.ADMIN_KEY + "')");
            browser.navigate().refresh();
        }
        if (path.contains("#")) {
            browser.navigate().refresh(); // a hash change alone does not reload the page
        }
    }

    private WebElement editor() {
        WebElement content = wait.until(d -> d.findElement(By.cssSelector(".cm-content")));
        content.click();
        return content;
    }

    /** Types a statement into the editor, runs it with Ctrl+Enter and returns the commit of its receipt. */
    private long runStatement(String statement) {
        long previous = sql.latestCommit();
        WebElement editor = editor();
        editor.sendKeys(Keys.chord(Keys.CONTROL, "a"), statement);
        editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
        return wait.until(d -> {
            List<WebElement> status = d.findElements(By.cssSelector("[data-testid=results] .status"));
            if (!d.findElements(By.cssSelector(".problem")).isEmpty()) {
                throw new AssertionError(d.findElement(By.cssSelector(".problem")).getText());
            }
            Matcher m = status.isEmpty() ? null : COMMITTED.matcher(status.get(0).getText());
            return m != null && m.find() && Long.parseLong(m.group(1)) > previous ? Long.parseLong(m.group(1)) : null;
        });
    }

    private String receipt(String field) {
        return browser.findElement(By.cssSelector("[data-testid=receipt] dd[data-field=" + field + "]")).getText();
    }

    private String cell(String grid, int row, String column) {
        List<WebElement> cells = browser.findElements(By.cssSelector(
                "[data-testid=" + grid + "] tbody tr:nth-child(" + (row + 1) + ") td[data-column=" + column + "] .value"));
        return cells.isEmpty() ? "" : cells.get(0).getText();
    }

    private void waitForText(By by, String text) {
        new WebDriverWait(browser, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class)
                .withMessage(() -> "waiting for '" + text + "' in " + by + ", page shows: "
                        + browser.findElements(by).stream().map(WebElement::getText).toList()
                        + " at " + browser.getCurrentUrl() + ", browser log: " + browserLog())
                .until(d -> d.findElements(by).stream().anyMatch(e -> e.getText().contains(text)));
    }

    private List<String> browserLog() {
        return browser.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER).getAll().stream()
                .map(e -> e.getLevel() + " " + e.getMessage()).toList();
    }

    private Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    /** Accessibility basics: every form control has a label, every button a name. */
    private void assertAllControlsLabelled() {
        Object unlabelled = js("""
                return [...document.querySelectorAll('input, select, textarea, [contenteditable=true], button, canvas')]
                  .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                               && !e.getAttribute('aria-labelledby') && !(e.tagName === 'BUTTON' && e.textContent.trim()))
                  .map(e => e.outerHTML.slice(0, 120));""");
        assertThat((List<?>) unlabelled).as("controls without a label").isEmpty();
    }

    private void assertOnlyThisServiceWasAsked() {
        Object foreign = js("return performance.getEntriesByType('resource').map(e => e.name)"
                + ".filter(n => !n.startsWith(location.origin) && !n.startsWith('blob:') && !n.startsWith('data:'))");
        assertThat((List<?>) foreign).as("requests to other hosts").isEmpty();
    }

    private void screenshot(String name) {
        try {
            Files.write(SHOTS.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
