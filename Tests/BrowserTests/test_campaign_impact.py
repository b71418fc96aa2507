"""What a campaign changed, in a browser: a campaign composed with a holdout, a goal and two
variants is sent to the demo's device simulator, whose apps add goal events for some
recipients and fewer for the holdout; the report on the campaign's page fills by itself
(the page is never reloaded) and shows recipients against the holdout with the lift."""
import os
import re
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import submit, wait_until_gone
from test_campaigns import demo  # noqa: F401  (the module's demo panel, a fixture)
from test_pages import violations


def number(text):
    return int(text.replace(",", ""))


def groups(driver):
    """The "Recipients against the holdout" table: users, converted and opened by group. Read
    in one script: the section is replaced as it refreshes, so elements found one by one go stale."""
    rows = driver.execute_script("""
        var found = [];
        document.querySelectorAll('#impact table').forEach(function (table) {
            if (table.caption && table.caption.textContent.indexOf('Recipients against the holdout') >= 0) {
                table.querySelectorAll('tbody tr').forEach(function (row) {
                    found.push(Array.from(row.querySelectorAll('td')).map(function (cell) { return cell.textContent.trim(); }));
                });
            }
        });
        return found;""")
    found = {}
    for cells in rows:
        name = "holdout" if cells[0].startswith("Holdout") else "recipients"
        found[name] = {"users": number(cells[1]), "converted": number(cells[2])}
    return found


def texts(driver, selector):
    return driver.execute_script("return Array.from(document.querySelectorAll(arguments[0])).map(function (e) { return e.textContent; });", selector)


def test_a_holdout_goal_and_two_variants_report_a_lift_as_the_simulated_apps_act(demo, browser):  # noqa: F811
    base = demo["base"]
    browser.set_window_size(1366, 900)
    browser.delete_all_cookies()
    browser.get(base + "/login")
    browser.find_element(By.NAME, "email").send_keys("marketing@example.com")
    browser.find_element(By.NAME, "password").send_keys(demo["password"])
    submit(browser)

    browser.get(base + "/campaigns/new")
    browser.find_element(By.ID, "name").send_keys("Impact, two variants")
    browser.find_element(By.ID, "title").send_keys("Anything expiring?")
    browser.find_element(By.ID, "body").send_keys("Add what is in your fridge.")
    # Variants B to D are folded until asked for.
    browser.find_element(By.CSS_SELECTOR, "#variants > summary").click()
    browser.find_element(By.ID, "title_b").send_keys("Your fridge misses you")
    browser.find_element(By.ID, "body_b").send_keys("Scan one item today.")
    holdout = browser.find_element(By.ID, "holdout_percent")
    holdout.clear()
    holdout.send_keys("25")
    Select(browser.find_element(By.NAME, "goal")).select_by_value("item_added")
    days = browser.find_element(By.ID, "goal_days")
    days.clear()
    days.send_keys("1")
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "#composer button[type=submit]").click()
    wait_until_gone(browser, page)
    assert "/campaigns/new" not in browser.current_url, browser.find_element(By.TAG_NAME, "main").text

    link = WebDriverWait(browser, 60).until(
        expected_conditions.presence_of_element_located((By.LINK_TEXT, "Continue to the confirmation")))
    expected = browser.find_element(By.ID, "expected-holdout").text
    assert re.search(r"Holdout: [\d,]+ users? \([\d,]+ devices?\) of the [\d,]+ reachable \(25%\)", expected), expected
    summary = browser.find_element(By.CSS_SELECTOR, "dl.facts").text
    assert "Variant B" in summary and "25% of the reachable users" in summary and "within 1 day" in summary, summary
    assert violations(browser) == []
    link.click()
    assert "drawn into the holdout" in browser.find_element(By.ID, "confirm-holdout").text
    typed = browser.find_elements(By.NAME, "typed_count")
    if typed:
        typed[0].send_keys(re.search(r"([\d,]+) devices", browser.find_element(By.TAG_NAME, "h1").text).group(1))
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "form.actions button[type=submit]").click()
    wait_until_gone(browser, page)
    campaign = int(re.search(r"/campaigns/(\d+)", browser.current_url).group(1))

    # From here the page is never reloaded: the report section refreshes itself.
    browser.execute_script("window.__stillThisPage = true")
    deadline = time.time() + 120
    seen = {}
    while time.time() < deadline:
        seen = groups(browser)
        if seen.get("recipients", {}).get("converted", 0) > 0 and seen.get("holdout", {}).get("users", 0) > 0 \
                and texts(browser, "#lift"):
            recipients, held = seen["recipients"], seen["holdout"]
            # The simulated apps act on about 35% of recipients and 12% of the holdout, a few
            # seconds apart: wait until most have, rather than stop at the first difference.
            if recipients["converted"] / recipients["users"] > held["converted"] / held["users"] + 0.05:
                break
        time.sleep(1)
    assert browser.execute_script("return window.__stillThisPage === true"), "the page reloaded"
    assert seen.get("holdout", {}).get("users", 0) > 0, seen
    assert seen.get("recipients", {}).get("converted", 0) > 0, f"the simulated apps recorded no goal event: {seen}"
    recipients, held = seen["recipients"], seen["holdout"]
    assert recipients["converted"] / recipients["users"] > held["converted"] / held["users"], seen
    lift = texts(browser, "#lift")[0]
    assert "Newcombe" in lift and "95% interval" in lift, lift
    variants = [text for text in texts(browser, "#impact table") if "By variant" in text]
    assert variants and "Variant A" in variants[0] and "Variant B" in variants[0], variants
    assert texts(browser, "#impact svg"), "the conversions per day are drawn"
    links = browser.execute_script("return Array.from(document.querySelectorAll('#impact a')).map(function (a) { return a.href; });")
    assert any(link.endswith(f"/campaigns/{campaign}/report.csv") for link in links), links
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        browser.set_window_size(1366, min(browser.execute_script("return document.documentElement.scrollHeight") + 120, 8000))
        browser.save_screenshot(os.path.join(folder, "campaign-impact.png"))
        browser.set_window_size(1366, 900)
    assert violations(browser) == []
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    # The live page keeps its event stream and refreshes open: leave it, so that they do not
    # fail into the next test's log once this module's demo stops.
    browser.get("about:blank")
    assert errors == [], errors


def test_marketing_reads_what_the_campaigns_pushes_cost_beside_its_holdout(demo, browser):  # noqa: F811
    """After the test above: the demo reads consent again 20 seconds after each push and the
    campaign's start; the simulated apps turn campaign pushes off for a few who opened one."""
    base = demo["base"]
    browser.set_window_size(1366, 900)
    # The test above left about:blank open: cookies are deleted for the panel's own address.
    browser.get(base + "/login")
    browser.delete_all_cookies()
    browser.get(base + "/login")
    browser.find_element(By.NAME, "email").send_keys("marketing@example.com")
    browser.find_element(By.NAME, "password").send_keys(demo["password"])
    submit(browser)
    browser.get(base + "/campaigns")
    browser.find_element(By.PARTIAL_LINK_TEXT, "Impact, two variants").click()
    deadline = time.time() + 120
    rows = []
    while time.time() < deadline:
        rows = driver_rows(browser)
        if any(row and row[0] == "Recipients" for row in rows) and any(row and row[0] == "Holdout" for row in rows):
            break
        time.sleep(3)
        browser.refresh()
    names = [row[0] for row in rows]
    assert "Recipients" in names and "Holdout" in names, rows
    recipients = next(row for row in rows if row[0] == "Recipients")
    assert number(recipients[1]) > 0 and "%" in recipients[2], recipients
    difference = [row for row in rows if row[0].startswith("Difference against its holdout")]
    assert difference and "(" in difference[0][2], rows
    assert "reads them again 20 seconds after the push" in browser.find_element(By.ID, "push-cost").text
    assert violations(browser) == []
    browser.set_window_size(390, 844)
    assert violations(browser) == []
    browser.set_window_size(1366, 900)
    # The list shows the share beside its baseline.
    browser.get(base + "/campaigns")
    assert "vs" in browser.find_element(By.CSS_SELECTOR, "td[data-label^='Turned off in 20 seconds']").text
    browser.get("about:blank")


def driver_rows(driver):
    return driver.execute_script("""
        var table = document.querySelector('#push-cost table');
        if (!table) { return []; }
        return Array.from(table.querySelectorAll('tbody tr')).map(function (row) {
            return Array.from(row.querySelectorAll('th, td')).map(function (cell) { return cell.textContent.trim(); });
        });""")
