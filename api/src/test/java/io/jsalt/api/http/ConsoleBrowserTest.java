package io.jsalt.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.jsalt.crypto.RsaKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.util.ajax.JSON;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

/**
 * The console in a real browser (Debian's headless Chromium) against jsalt-api in front of a real master and
 * real minions (in this JVM, on loopback): log in, the minions, a job whose returns arrive one by one, the
 * job history, the event stream, a key accepted after its confirmation, the supervised processes, and markup
 * planted in a grain and a return that must stay text.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleBrowserTest {
    /** Runs if the browser ever turns minion data into markup: it counts in a global the test reads. */
    private static final String XSS_IMG = "<img src=x onerror=\"window.jsaltXss=(window.jsaltXss||0)+1\">";
    private static final String XSS_SCRIPT = "<script>window.jsaltXss=(window.jsaltXss||0)+1</script>";

    private ApiCluster cluster;
    private ConsoleBrowser browser;
    private String adminToken;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    void start(@TempDir Path root) throws Exception {
        Path users = Files.writeString(root.resolve("users"), "admin:adminpw\npinger:pingpw\n");
        cluster = new ApiCluster(root)
                .minionSettings("web-01", Map.of("supervisor_on_stop", "stop",
                        "supervisor", Map.of("app", Map.of("command", "sh -c 'echo hello from app; exec sleep 1000'", "startsecs", "0"))))
                .minionSettings("evil-01", Map.of("grains", Map.of("os", XSS_IMG, "role", XSS_SCRIPT)))
                .start(Map.of("file", Map.of(
                        "^filename", users.toString(),
                        // @events: the whole event bus, not only one's own jobs (the webhook's event below)
                        "admin", List.of(".*", "@runner", "@wheel", "@events"),
                        "pinger", List.of("test.ping"))), List.of("local", "local_async", "runner", "wheel"), "web-01", "web-02", "evil-01");
        adminToken = login("admin", "adminpw");
        await("every minion answers a ping through the API").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    String answer = post("/", "[{\"client\":\"local\",\"tgt\":\"*\",\"fun\":\"test.ping\",\"timeout\":2}]");
                    return answer.contains("\"web-01\":true") && answer.contains("\"web-02\":true") && answer.contains("\"evil-01\":true");
                });
        browser = new ConsoleBrowser(Files.createDirectories(root.resolve("chromium-profile")));
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Every test starts at the login page of a tab that holds no session. */
    @BeforeEach
    void loggedOut() {
        browser.open(cluster.baseUrl() + "/app");
        browser.js("sessionStorage.clear(); location.hash = '';");
        browser.open(cluster.baseUrl() + "/app");
        browser.waitFor("the login page", () -> browser.find("#login-page").isDisplayed());
    }

    private void logIn(String user, String password) {
        browser.type("#login-form input[name=username]", user);
        browser.type("#login-form input[name=password]", password);
        browser.find("#login-form button[type=submit]").click();
        browser.waitFor("logged in", () -> browser.find("#nav").isDisplayed());
    }

    /** Goes to a page (#run, #job/JID, ...) and waits until it shows: the hash changes the page a moment later. */
    private void go(String page) {
        browser.js("location.hash = arguments[0];", page);
        String section = page.replaceFirst("^#", "").replaceFirst("/.*", "") + "-page";
        browser.waitFor("the page " + page, () -> browser.find("#" + section).isDisplayed());
    }

    private WebElement minionRow(String id) {
        return browser.find("#minions-body tr[data-id='" + id + "']");
    }

    @Test
    void logsInAndListsTheMinionsWithKeyStatePresenceAndOs() {
        logIn("admin", "adminpw");
        browser.waitFor("three minions with their grains", () -> browser.all("#minions-body tr").size() == 3
                && !minionRow("web-01").findElements(org.openqa.selenium.By.tagName("td")).get(4).getText().isEmpty());
        List<WebElement> web01 = minionRow("web-01").findElements(org.openqa.selenium.By.tagName("td"));
        assertThat(web01.get(1).getText()).isEqualTo("accepted");
        assertThat(web01.get(2).getText()).isEqualTo("connected");
        assertThat(web01.get(3).getText()).matches("\\d+ s ago"); // its returns, start and process reports: manage.last_seen
        browser.screenshot("minions");

        browser.type("#minion-filter", "web-02");
        browser.waitFor("the search keeps one row", () -> browser.all("#minions-body tr").size() == 1);
        assertThat(browser.find("#minions-body tr").getAttribute("data-id")).isEqualTo("web-02");
        browser.find("#minions-body tr a").click(); // an id opens the run page aimed at that minion
        browser.waitFor("the run page for web-02", () -> browser.text("#target-preview").equals("Matches 1 minion: web-02."));
        assertThat(browser.find("#run-form input[name=tgt]").getAttribute("value")).isEqualTo("web-02");
        // the token is in the tab's sessionStorage only: no cookie, nothing in the address
        assertThat(browser.js("return document.cookie;")).isEqualTo("");
        assertThat(browser.url()).doesNotContain((String) browser.js("return sessionStorage.getItem('jsalt-token');"));
    }

    @Test
    void aJobsReturnsArriveOneByOneAndAMinionThatIsSilentIsShownAsTheCliShowsIt() throws Exception {
        Path ghost = cluster.masterPki().resolve("minions").resolve("ghost-01");
        Files.writeString(ghost, RsaKeys.publicKeyPem(RsaKeys.generate(2048).getPublic()));
        try {
            logIn("admin", "adminpw");
            go("#run");
            browser.type("#run-form input[name=tgt]", "web-01,web-02,ghost-01");
            browser.find("#run-form select[name=tgt_type] option[value=list]").click();
            browser.waitFor("the target's live preview", () -> browser.text("#target-preview").startsWith("Matches 3 minions: ghost-01, web-01, web-02"));

            browser.type("#run-form input[name=fun]", "test.ping");
            browser.find("#fun-help").click();
            browser.waitFor("sys.doc's help from a minion", () -> browser.text("#fun-doc").startsWith("test.ping:"));

            browser.type("#run-form input[name=timeout]", "8"); // ample for the live two, under load too
            browser.find("#run-submit").click();
            // both answers are on the page while the job is still waiting for ghost-01: they were shown as they came
            browser.waitFor("web-01 and web-02 returned, ghost-01 still awaited", () ->
                    returnBox("web-01").getAttribute("class").contains("returned") && returnBox("web-02").getAttribute("class").contains("returned")
                            && returnBox("ghost-01").getAttribute("class").contains("waiting") && browser.text("#run-summary").contains("waiting"));
            assertThat(returnBox("web-01").getText()).isEqualTo("web-01:\n    True");
            browser.screenshot("run");
            browser.waitFor("the timeout gives ghost-01 up", () -> returnBox("ghost-01").getAttribute("class").contains("missing"));
            assertThat(returnBox("ghost-01").getText()).isEqualTo("ghost-01:\n    Minion did not return. [No response]");
            assertThat(browser.text("#run-summary")).contains("2 of 3 minions returned");

            browser.find("#run-output option[value=json]").click();
            browser.waitFor("the json output", () -> returnBox("web-02").getText().equals("{\n    \"web-02\": true\n}"));
            browser.find("#run-output option[value=yaml]").click();
            browser.waitFor("the yaml output", () -> returnBox("web-02").getText().equals("web-02: true"));
        } finally {
            Files.deleteIfExists(ghost);
        }
    }

    @Test
    void argumentsAreTypedAsTheCliTypesThemAndAFailedReturnIsMarked() {
        logIn("admin", "adminpw");
        go("#run");
        browser.type("#run-form input[name=tgt]", "web-02");
        browser.find("#run-form select[name=tgt_type] option[value=glob]").click();
        browser.type("#run-form input[name=fun]", "test.arg");
        browser.type("#run-form textarea[name=arg]", "1\ntwo\n'3'\n[1, 2]\ntxt=hello\nflag=yes");
        browser.find("#run-submit").click();
        browser.waitFor("web-02's return", () -> returnBox("web-02").getAttribute("class").contains("returned"));
        // Salt's nested layout: a list of lists gets "|_", a mapping nested in a return its "----------"
        assertThat(returnBox("web-02").getText()).isEqualTo(String.join("\n", "web-02:", "    ----------", "    args:", "        - 1",
                "        - two", "        - 3", "        |_", "          - 1", "          - 2", "    kwargs:", "        ----------",
                "        flag:", "            True", "        txt:", "            hello"));

        browser.find("#run-output option[value=txt]").click();
        browser.waitFor("the txt output", () -> returnBox("web-02").getText().startsWith("web-02: {'args': [1, 'two', '3', [1, 2]], 'kwargs': {"));
        browser.find("#run-output option[value=raw]").click();
        browser.waitFor("the raw output", () -> returnBox("web-02").getText().startsWith("{'web-02': {'args': [1, 'two', '3', [1, 2]], 'kwargs': {"));
        assertThat(returnBox("web-02").getText()).contains("'flag': True", "'txt': 'hello'");
        browser.find("#run-output option[value=auto]").click();

        browser.type("#run-form input[name=fun]", "test.retcode");
        browser.type("#run-form textarea[name=arg]", "code=3");
        browser.find("#run-submit").click();
        browser.waitFor("the failed return", () -> returnBox("web-02").getAttribute("class").contains("failed"));
        assertThat(returnBox("web-02").findElement(org.openqa.selenium.By.cssSelector("span")).getAttribute("class")).isEqualTo("o-red");
    }

    @Test
    void aStateRunIsShownAsTheCliShowsIt() {
        logIn("admin", "adminpw");
        go("#run");
        browser.type("#run-form input[name=tgt]", "web-02");
        browser.find("#run-form select[name=tgt_type] option[value=glob]").click();
        browser.type("#run-form input[name=fun]", "state.single");
        browser.type("#run-form textarea[name=arg]", "test.succeed_with_changes\nname=deploy");
        browser.find("#run-submit").click();
        browser.waitFor("web-02's state run", () -> returnBox("web-02").getAttribute("class").contains("returned"));
        // the highstate outputter, which the CLI picks for a state run (the return's "out")
        String text = returnBox("web-02").getText();
        assertThat(text).startsWith(String.join("\n", "web-02:", "----------", "          ID: deploy",
                "    Function: test.succeed_with_changes", "      Result: True", "     Comment: Success!"));
        assertThat(text).contains("\nSummary for web-02\n", "Succeeded: 1 (changed=1)", "Total states run:     1");
        browser.screenshot("run-state");

        // the job's page knows no "out" (the job cache keeps none): the return's shape tells it is a state run
        browser.find("#run-summary a").click();
        browser.waitFor("the state run on the job's page", () -> browser.text("#job-returns")
                .startsWith("web-02:\n----------\n          ID: deploy\n    Function: test.succeed_with_changes"));
        assertThat(browser.text("#job-info")).contains("test.succeed_with_changes name=deploy"); // the arguments as typed
    }

    /** Salt 3006.8's own highstate output of kept state runs (client-cli's cases, also HighstateOutputVsSaltTest's). */
    private static final Path HIGHSTATE_CASES = Path.of("..", "client-cli", "src", "test", "resources", "highstate");

    @Test
    @SuppressWarnings("unchecked")
    void theHighstateFormatPrintsWhatSaltPrintsForItsDefaultOptions() throws Exception {
        String cases = Files.readString(HIGHSTATE_CASES.resolve("cases.json"));
        String expected = Files.readString(HIGHSTATE_CASES.resolve("expected.json"));
        // the console's own module, in the browser: every case that uses Salt's default options (full, verbose, profile)
        Map<String, Object> checked = (Map<String, Object>) browser.asyncJs("""
                const [cases, expected, done] = arguments;
                import('/app/highstate.js').then((m) => {
                  const wrong = [];
                  let count = 0;
                  JSON.parse(cases).forEach((c, i) => {
                    const o = c.opts || {};
                    if ((o.state_output && o.state_output !== 'full') || o.state_verbose === false || o.state_output_profile === false) {
                      return;
                    }
                    count++;
                    const text = Object.entries(c.data).map(([host, data]) => m.highstate(host, data).map((l) => l.text).join('\\n')).join('\\n');
                    if (text !== JSON.parse(expected)[i]) {
                      wrong.push(c.name);
                    }
                  });
                  done({ count: count, wrong: wrong });
                }, (e) => done({ count: 0, wrong: [String(e)] }));
                """, cases, expected);
        assertThat((List<Object>) checked.get("wrong")).isEmpty();
        assertThat(((Number) checked.get("count")).intValue()).isGreaterThanOrEqualTo(7);
    }

    private WebElement returnBox(String minion) {
        return browser.find("#returns .minion-return[data-minion='" + minion + "']");
    }

    @Test
    void theJobHistoryListsAJobAndOpensItsReturns() throws Exception {
        String jid = (String) ((Map<?, ?>) ((Object[]) ((Map<?, ?>) new JSON().fromJSON(post("/",
                "[{\"client\":\"local_async\",\"tgt\":\"web-01\",\"fun\":\"test.echo\",\"arg\":[\"from the history\"]}]"))).get("return"))[0]).get("jid");
        await("the job's return is in the job cache").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> get("/jobs/" + jid).contains("from the history"));
        logIn("admin", "adminpw");
        go("#jobs");
        browser.waitFor("the job in the history", () -> browser.all("#jobs-body a[href='#job/" + jid + "']").size() == 1);
        assertThat(browser.find("#jobs-body a[href='#job/" + jid + "']").findElement(org.openqa.selenium.By.xpath("ancestor::tr")).getText())
                .startsWith(jid).contains("test.echo", "from the history", "web-01", "admin");
        browser.screenshot("jobs");
        browser.find("#jobs-body a[href='#job/" + jid + "']").click();
        browser.waitFor("the job's page", () -> browser.text("#job-returns").equals("web-01:\n    from the history"));
        assertThat(browser.text("#job-info")).contains("test.echo", "admin", "1 of 1 minions");
        browser.screenshot("job");
    }

    @Test
    void theEventStreamShowsEventsAsTheyAreFiredOnlyThoseTheTagFilterTakes() throws Exception {
        logIn("admin", "adminpw");
        go("#events");
        browser.type("#events-filter", "salt/job/");
        browser.waitFor("the stream is live", () -> browser.text("#events-state").equals("live"));
        String first = asyncPing("web-02");
        browser.waitFor("the job's return event", () -> !browser.all("#events-body tr[data-tag='salt/job/" + first + "/ret/web-02']").isEmpty());
        assertThat(browser.all("#events-body tr[data-tag='salt/job/" + first + "/new']")).hasSize(1);

        post("/hook/console/test", "{\"deploy\": \"done\"}");
        String second = asyncPing("web-01");
        // events arrive in order: once the later job shows, the hook event came before it and was filtered out
        browser.waitFor("the later job's return event", () -> !browser.all("#events-body tr[data-tag='salt/job/" + second + "/ret/web-01']").isEmpty());
        assertThat(browser.all("#events-body tr[data-tag='salt/netapi/hook/console/test']")).isEmpty();
        browser.screenshot("events");

        browser.type("#events-filter", "salt/netapi/*");
        browser.waitFor("the kept hook event under the new filter", () -> browser.all("#events-body tr").size() == 1
                && browser.find("#events-body tr").getAttribute("data-tag").equals("salt/netapi/hook/console/test"));
        browser.find("#events-body tr summary").click();
        assertThat(browser.text("#events-body tr pre")).contains("\"deploy\": \"done\"");
    }

    private String asyncPing(String minion) throws Exception {
        Map<?, ?> answer = (Map<?, ?>) new JSON().fromJSON(post("/", "[{\"client\":\"local_async\",\"tgt\":\"" + minion + "\",\"fun\":\"test.ping\"}]"));
        return (String) ((Map<?, ?>) ((Object[]) answer.get("return"))[0]).get("jid");
    }

    @Test
    void aPendingKeyChangesOnlyAfterItsConfirmation() throws Exception {
        Path pending = cluster.masterPki().resolve("minions_pre").resolve("new-01");
        Path rejected = cluster.masterPki().resolve("minions_rejected").resolve("new-01");
        Path accepted = cluster.masterPki().resolve("minions").resolve("new-01");
        Files.writeString(pending, RsaKeys.publicKeyPem(RsaKeys.generate(2048).getPublic()));
        try {
            logIn("admin", "adminpw");
            go("#keys");
            browser.waitFor("the pending key", () -> keyState("new-01").equals("pending"));
            browser.type("#keys-filter", "new-01");
            browser.waitFor("the search keeps new-01 alone", () -> browser.all("#keys-body tr").size() == 1);
            clickKeyAction("new-01", "accept");
            assertThat(browser.text("#confirm-title")).isEqualTo("Accept the pending key of new-01?");
            assertThat(browser.text("#confirm-detail")).startsWith("Compare its fingerprint with the one of the minion's own key");
            assertThat(browser.text("#confirm-code")).matches("([0-9a-f]{2}:){31}[0-9a-f]{2}");
            browser.screenshot("keys");
            browser.find("#confirm-no").click();
            browser.waitFor("nothing changed", () -> browser.text("#status").equals("Nothing changed."));
            assertThat(pending).exists();

            clickKeyAction("new-01", "reject");
            assertThat(browser.text("#confirm-title")).isEqualTo("Reject the pending key of new-01?");
            browser.find("#confirm-yes").click();
            browser.waitFor("the key rejected", () -> keyState("new-01").equals("rejected"));
            assertThat(rejected).exists();
            assertThat(pending).doesNotExist();

            clickKeyAction("new-01", "accept"); // a rejected key is accepted with include_rejected
            browser.find("#confirm-yes").click();
            browser.waitFor("the key accepted", () -> keyState("new-01").equals("accepted"));
            assertThat(browser.text("#status")).isEqualTo("The key of new-01 is accepted.");
            assertThat(accepted).exists();
            assertThat(rejected).doesNotExist();

            clickKeyAction("new-01", "delete");
            assertThat(browser.text("#confirm-title")).isEqualTo("Delete the accepted key of new-01?");
            browser.find("#confirm-yes").click();
            browser.waitFor("the key gone", () -> browser.all("#keys-body tr[data-id='new-01']").isEmpty());
            assertThat(accepted).doesNotExist();
        } finally {
            Files.deleteIfExists(pending);
            Files.deleteIfExists(rejected);
            Files.deleteIfExists(accepted);
        }
    }

    private String keyState(String id) {
        return browser.find("#keys-body tr[data-id='" + id + "']").findElements(org.openqa.selenium.By.tagName("td")).get(1).getText();
    }

    private void clickKeyAction(String id, String action) {
        browser.find("#keys-body tr[data-id='" + id + "'] button.action-" + action).click();
        browser.waitFor("the confirmation", () -> browser.find("#confirm").isDisplayed());
    }

    @Test
    void theSupervisionPageShowsTheFleetsProcessesAsTheMinionsReportThem() {
        logIn("admin", "adminpw");
        go("#supervision");
        browser.waitFor("web-01's app, running", () -> browser.find("#supervision-body tr[data-minion='web-01'][data-process='app']")
                .findElements(org.openqa.selenium.By.tagName("td")).get(2).getText().equals("RUNNING"));
        List<WebElement> cells = browser.find("#supervision-body tr[data-minion='web-01'][data-process='app']")
                .findElements(org.openqa.selenium.By.tagName("td"));
        assertThat(Long.parseLong(cells.get(3).getText())).isPositive();
        assertThat(cells.get(7).getText()).endsWith("s ago");
        cells.get(8).findElement(org.openqa.selenium.By.tagName("button")).click(); // Log: supervisor.tail asks the minion
        browser.waitFor("the process's log", () -> browser.text("#supervision-log-text").contains("hello from app"));
        assertThat(browser.text("#supervision-log-title")).isEqualTo("The last 20 lines of app on web-01");
        browser.screenshot("supervision");
        browser.find("#supervision-text").click();
        browser.waitFor("supervisor.table's text", () -> browser.text("#supervision-table-text").startsWith("MINION"));
        assertThat(browser.text("#supervision-table-text")).containsPattern("web-01 +app +RUNNING");
    }

    @Test
    void markupInAGrainOrAReturnStaysTextAndNeverRuns() throws Exception {
        logIn("admin", "adminpw");
        // any inline script or handler the page tried to run would also be a CSP violation: count those too
        browser.js("document.addEventListener('securitypolicyviolation', () => { window.jsaltViolations = (window.jsaltViolations || 0) + 1; });");
        browser.waitFor("evil-01's grains", () -> minionRow("evil-01").findElements(org.openqa.selenium.By.tagName("td")).get(4).getText()
                .equals(XSS_IMG));

        go("#run");
        browser.type("#run-form input[name=tgt]", "evil-01");
        browser.find("#run-form select[name=tgt_type] option[value=glob]").click();
        browser.type("#run-form input[name=fun]", "grains.item");
        browser.type("#run-form textarea[name=arg]", "os\nrole");
        browser.find("#run-submit").click();
        browser.waitFor("evil-01's return", () -> returnBox("evil-01").getAttribute("class").contains("returned"));
        assertThat(returnBox("evil-01").getText()).isEqualTo("evil-01:\n    ----------\n    os:\n        " + XSS_IMG
                + "\n    role:\n        " + XSS_SCRIPT);

        String jid = browser.find("#run-summary a").getAttribute("href").replaceAll(".*#job/", "");
        go("#events");
        browser.waitFor("the stream is live", () -> browser.text("#events-state").equals("live"));
        post("/", "[{\"client\":\"local\",\"tgt\":\"evil-01\",\"fun\":\"test.echo\",\"arg\":[\"" + XSS_SCRIPT.replace("\"", "\\\"") + "\"]}]");
        browser.waitFor("the echo's return event", () -> browser.all("#events-body tr[data-tag$='/ret/evil-01']").size() >= 1);
        browser.find("#events-body tr[data-tag$='/ret/evil-01'] summary").click();
        assertThat(browser.text("#events-body tr[data-tag$='/ret/evil-01'] pre")).contains(XSS_SCRIPT.replace("\"", "\\\""));

        go("#job/" + jid);
        browser.waitFor("the job's page", () -> browser.text("#job-returns").contains(XSS_IMG));

        assertThat(browser.js("return window.jsaltXss === undefined && window.jsaltViolations === undefined;")).isEqualTo(true);
        assertThat(browser.js("return document.querySelectorAll('main img, main script, main iframe').length;")).isEqualTo(0L);
    }

    @Test
    void aUserWithNarrowRightsSeesWhatTheyAllowAndStaysLoggedIn() {
        logIn("pinger", "pingpw");
        browser.waitFor("the rights note", () -> browser.text("#status").startsWith("Not shown: key states"));
        assertThat(browser.text("#status")).contains("@wheel", "presence", "grains");
        assertThat(browser.find("#nav").isDisplayed()).isTrue();
        assertThat(browser.text("#who")).isEqualTo("pinger");

        browser.find("#logout").click();
        browser.waitFor("the login page", () -> browser.find("#login-page").isDisplayed());
        assertThat(browser.js("return sessionStorage.getItem('jsalt-token');")).isNull();
    }

    @Test
    void stateChangingRequestsNeedTheTokenHeaderNotACookie() throws Exception {
        String body = "[{\"client\":\"wheel\",\"fun\":\"key.list_all\"}]";
        HttpResponse<String> cookieOnly = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/"))
                .header("Content-Type", "application/json").header("Cookie", "session_id=" + adminToken)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(cookieOnly.statusCode()).isEqualTo(401);
        HttpResponse<String> header = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/"))
                .header("Content-Type", "application/json").header("X-Auth-Token", adminToken)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(header.statusCode()).isEqualTo(200);
    }

    @Test
    void theConsolesLoginsAreRateLimitedLikeEveryLogin() throws Exception {
        try (io.jsalt.api.ApiServer own = cluster.anotherApi(Map.of("file", Map.of("^filename", "/nonexistent")), List.of("local"),
                c -> c.withWebFiles(new WebFiles("/console", null, "/static", null)))) {
            // an API of its own: its per-address count does not lock the other tests out; and its console is at
            // another app_path, which the page's own script and style follow
            String base = "http://127.0.0.1:" + own.port();
            browser.open(base + "/console");
            browser.waitFor("the login page", () -> browser.find("#login-page").isDisplayed());
            assertThat(browser.js("return Array.from(document.styleSheets).map(s => s.href + ' ' + s.cssRules.length).join();"))
                    .asString().matches(".*/console/app\\.css [1-9][0-9]*");
            browser.screenshot("login");
            tryLogin("guess-1");
            assertThat(browser.text("#status")).isEqualTo("Login failed: wrong user, password or backend.");
            // the other failures straight to the same path from the same address, to save the browser's time
            for (int i = 2; i <= Routes.MAX_LOGIN_FAILURES; i++) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/login"))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                                "{\"username\":\"intruder\",\"password\":\"guess-" + i + "\",\"eauth\":\"file\"}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as("try " + i).isEqualTo(401);
            }
            tryLogin("guess-" + (Routes.MAX_LOGIN_FAILURES + 1));
            assertThat(browser.text("#status")).isEqualTo("Too many failed logins from this address: wait a minute before trying again.");
        }
    }

    /** One login through the console's form, as a user named "intruder" (a name no other test logs in with). */
    private void tryLogin(String password) {
        browser.js("document.getElementById('status').textContent = '';");
        browser.type("#login-form input[name=username]", "intruder");
        browser.type("#login-form input[name=password]", password);
        browser.find("#login-form button[type=submit]").click();
        browser.waitFor("an answer to the login", () -> !browser.text("#status").isEmpty());
    }

    // ---- plumbing ----

    private String login(String user, String password) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + "/login"))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"" + user + "\",\"password\":\"" + password + "\",\"eauth\":\"file\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Map<?, ?> answer = (Map<?, ?>) new JSON().fromJSON(r.body());
        return (String) ((Map<?, ?>) ((Object[]) answer.get("return"))[0]).get("token");
    }

    private String get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + path)).header("Accept", "application/json")
                .header("X-Auth-Token", adminToken).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private String post(String path, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(cluster.baseUrl() + path))
                .header("Content-Type", "application/json").header("Accept", "application/json").header("X-Auth-Token", adminToken)
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        return r.body();
    }
}
