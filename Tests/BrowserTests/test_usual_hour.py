"""Each user's usual hour, in a browser: a campaign composed with "At each user's usual hour"
and a control share is launched in the demo; its page shows the send hours (each
recipient's local hour, where the hours came from, what was moved) and its report the usual
hour against the control sent at the fixed time. Opens may come slowly (the usual-hour group
is sent over the next 24 hours): the test waits for the table and both groups' users only."""
import re
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import wait_until_gone
from test_campaigns import demo  # noqa: F401  (the module's demo panel, a fixture)
from test_pages import violations
from conftest import submit


def number(text):
    return int(text.replace(",", ""))


def timing_rows(driver):
    """The "Usual hour against control" table's users by group, read in one script: the
    report section is replaced as it refreshes, so elements found one by one go stale."""
    rows = driver.execute_script("""
        var found = {};
        ['timing-usual', 'timing-control'].forEach(function (id) {
            var row = document.getElementById(id);
            if (row) { found[id] = Array.from(row.querySelectorAll('td')).map(function (cell) { return cell.textContent.trim(); }); }
        });
        return found;""")
    return {key: number(cells[1]) for key, cells in rows.items() if len(cells) > 1}


def no_violations_at_both_widths(driver):
    for width in (1366, 390):
        driver.set_window_size(width, 900)
        found = violations(driver)
        assert found == [], f"{driver.current_url} at {width} px: {found}"
    driver.set_window_size(1366, 900)


def test_compose_with_usual_hour_launch_read_the_send_hours_and_the_comparison(demo, browser):  # noqa: F811
    base = demo["base"]
    browser.set_window_size(1366, 900)
    browser.delete_all_cookies()
    browser.get(base + "/login")
    browser.find_element(By.NAME, "email").send_keys("marketing@example.com")
    browser.find_element(By.NAME, "password").send_keys(demo["password"])
    submit(browser)

    browser.get(base + "/campaigns/new")
    browser.find_element(By.ID, "name").send_keys("At their usual hour")
    browser.find_element(By.ID, "title").send_keys("Anything expiring?")
    browser.find_element(By.ID, "body").send_keys("Have a look at your fridge.")
    Select(browser.find_element(By.NAME, "timing")).select_by_value("usual_hour")
    share = browser.find_element(By.ID, "timing_control_percent")
    assert share.get_attribute("value") == "10", "the control share starts at its default"
    share.clear()
    share.send_keys("30")
    no_violations_at_both_widths(browser)
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "#composer button[type=submit]").click()
    wait_until_gone(browser, page)
    assert "/campaigns/new" not in browser.current_url, browser.find_element(By.TAG_NAME, "main").text

    link = WebDriverWait(browser, 60).until(
        expected_conditions.presence_of_element_located((By.LINK_TEXT, "Continue to the confirmation")))
    assert "at each user's usual hour within 24 hours (control 30% at the fixed time)" in browser.find_element(By.ID, "campaign-timing").text
    link.click()
    timing = browser.find_element(By.ID, "confirm-timing").text
    assert "at each user's usual hour within 24 hours (control 30% at the fixed time)" in timing, timing
    no_violations_at_both_widths(browser)
    typed = browser.find_elements(By.NAME, "typed_count")
    if typed:
        typed[0].send_keys(re.search(r"([\d,]+) devices", browser.find_element(By.TAG_NAME, "h1").text).group(1))
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "form.actions button[type=submit]").click()
    wait_until_gone(browser, page)
    campaign = int(re.search(r"/campaigns/(\d+)", browser.current_url).group(1))

    # The send hours are written by the freeze: the page shows them once it is done.
    deadline = time.time() + 120
    while time.time() < deadline and not browser.find_elements(By.ID, "send-hours"):
        time.sleep(1)
        browser.get(f"{base}/campaigns/{campaign}")
    section = browser.find_element(By.ID, "send-hours")
    totals = browser.find_element(By.ID, "send-hours-totals").text
    found = re.search(r"([\d,]+) users? at their usual hour; ([\d,]+) users? in the control", totals)
    assert found, totals
    usual, control = number(found.group(1)), number(found.group(2))
    assert usual > 0 and control > 0, totals
    rows = section.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == 24, "one row per local hour"
    per_hour = [number(row.find_elements(By.TAG_NAME, "td")[1].text) for row in rows]
    assert sum(per_hour) == usual, (per_hour, usual)
    assert "each recipient's local time" in section.find_element(By.TAG_NAME, "caption").text
    basis = browser.find_element(By.ID, "send-hours-basis").text
    assert re.search(r"own activity [\d,]+, peers [\d,]+, everyone [\d,]+, no data [\d,]+", basis), basis
    moved = browser.find_element(By.ID, "send-hours-moved").text
    assert re.search(r"Moved by quiet hours [\d,]+, at the fixed time by the deadline [\d,]+", moved), moved

    # The report refreshes itself: the comparison's table appears with both groups.
    deadline = time.time() + 120
    seen = {}
    while time.time() < deadline:
        seen = timing_rows(browser)
        if seen.get("timing-usual", 0) > 0 and seen.get("timing-control", 0) > 0:
            break
        time.sleep(1)
    assert seen.get("timing-usual", 0) > 0 and seen.get("timing-control", 0) > 0, seen
    comparison = browser.find_element(By.ID, "timing-comparison").text
    assert "Control: sent at the campaign's fixed time" in comparison, comparison
    # Minutes after the launch no push has had its day: no claim either way, and the page says why.
    assert "no lift yet" in browser.find_element(By.ID, "timing-open-lift").text, comparison
    assert "have not had a day" in browser.find_element(By.ID, "timing-waiting").text, comparison
    no_violations_at_both_widths(browser)


def test_the_journey_form_refuses_a_bad_control_share_beside_the_timing_fields(demo, browser):  # noqa: F811
    base = demo["base"]
    browser.set_window_size(1366, 900)
    browser.delete_all_cookies()
    browser.get(base + "/login")
    browser.find_element(By.NAME, "email").send_keys("marketing@example.com")
    browser.find_element(By.NAME, "password").send_keys(demo["password"])
    submit(browser)

    browser.get(base + "/journeys/new")
    browser.find_element(By.ID, "title").send_keys("Back at your hour")
    browser.find_element(By.ID, "body").send_keys("Your pantry misses you.")
    Select(browser.find_element(By.NAME, "timing")).select_by_value("usual_hour")
    share = browser.find_element(By.ID, "timing_control_percent")
    # The browser's own check would stop a number out of range: the server's is what is tested.
    browser.execute_script("arguments[0].removeAttribute('max'); arguments[0].value = '70';", share)
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "#journey-form button[type=submit]").click()
    wait_until_gone(browser, page)
    problem = browser.find_element(By.ID, "timing-problem").text
    assert "The timing control share (%) must be a whole number from 0 to 50." in problem, problem
    assert browser.find_element(By.ID, "timing_control_percent").get_attribute("value") == "70", "what was typed is kept"
    assert browser.find_element(By.ID, "title").get_attribute("value") == "Back at your hour", "nothing lost"
    no_violations_at_both_widths(browser)
