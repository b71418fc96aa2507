"""Issue 36, points 1, 5 and 8 in a browser: statuses are badges with words and enough
contrast (axe, colour contrast included), the staff page's row menu opens by keyboard and its
actions work, and a refused composer marks its field. At a laptop's and a phone's width."""
import sqlite3

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import sign_in, wait_until_gone
from test_layout import problems_of
from test_pages import violations

TESTER = "badge.tester@odd.test"


def badges_have_words(driver, page):
    badges = driver.find_elements(By.CSS_SELECTOR, ".badge")
    assert badges, f"{page} shows no badge"
    for badge in badges:
        text = badge.text.strip()
        assert text, f"{page}: a badge without a word: {badge.get_attribute('outerHTML')}"
        tone = [name for name in badge.get_attribute("class").split() if name.startswith("tone-")]
        assert len(tone) == 1, f"{page}: a badge without one tone: {badge.get_attribute('outerHTML')}"


def a_user_with_a_device(panel):
    db = sqlite3.connect(panel["db"])
    (user_id,) = db.execute("SELECT user_id FROM devices ORDER BY user_id LIMIT 1").fetchone()
    db.close()
    return user_id


def a_draft(panel, browser):
    """A draft campaign of this test's own, so that the list and a campaign page have a status."""
    browser.get(panel["base"] + "/campaigns/new")
    browser.find_element(By.ID, "name").send_keys("Badge check")
    browser.find_element(By.ID, "title").send_keys("Hello")
    browser.find_element(By.ID, "body").send_keys("A message")
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "#composer button.primary").click()
    wait_until_gone(browser, page)
    assert "/campaigns/" in browser.current_url, browser.current_url
    return browser.current_url


@pytest.mark.parametrize("width", [1366, 390])
def test_badges_have_words_and_pass_axe(panel, browser, width):
    browser.set_window_size(width, 900)
    sign_in(browser, panel["base"], "admin")
    campaign = a_draft(panel, browser)
    pages = ["/admins", "/campaigns", campaign.replace(panel["base"], ""), f"/users/{a_user_with_a_device(panel)}", "/users?by=email&q=hostile",
             "/journeys"]
    found = {}
    for page in pages:
        browser.get(panel["base"] + page)
        if page != "/journeys" or browser.find_elements(By.CSS_SELECTOR, "table.data"):
            badges_have_words(browser, page)
        # The layout checks of test_layout (width, words cut, controls, axe with colour contrast).
        problems = problems_of(browser, "badges" + page.replace("/", "-").replace("?", "-"), width)
        if problems:
            found[page] = problems
    assert found == {}, f"{width} px: {found}"


def row_menu(browser, email):
    for row in browser.find_elements(By.CSS_SELECTOR, "table.data tbody tr"):
        if email in row.text:
            return row.find_element(By.CSS_SELECTOR, "details.row-menu")
    raise AssertionError(f"no row for {email}")


def keyboard(browser, *keys):
    chain = ActionChains(browser)
    for key in keys:
        chain.send_keys(key)
    chain.perform()


@pytest.mark.parametrize("width", [1366, 390])
def test_the_staff_row_menu_opens_by_keyboard_and_its_actions_work(panel, browser, width):
    browser.set_window_size(width, 900)
    sign_in(browser, panel["base"], "admin")
    browser.get(panel["base"] + "/admins")
    if TESTER not in browser.page_source:
        browser.find_element(By.ID, "new-email").send_keys(TESTER)
        page = browser.find_element(By.TAG_NAME, "html")
        browser.find_element(By.CSS_SELECTOR, "form[action='/admins/create'] button").click()
        wait_until_gone(browser, page)
        browser.get(panel["base"] + "/admins")
    # One menu a row, closed; no red button on a row.
    rows = browser.find_elements(By.CSS_SELECTOR, "table.data tbody tr")
    assert all(len(row.find_elements(By.CSS_SELECTOR, "details.row-menu")) == 1 for row in rows)
    assert browser.find_elements(By.CSS_SELECTOR, "table.data a.button.danger") == []

    menu = row_menu(browser, TESTER)
    assert menu.get_attribute("open") is None
    summary = menu.find_element(By.TAG_NAME, "summary")
    browser.execute_script("arguments[0].focus()", summary)
    keyboard(browser, Keys.ENTER)
    assert menu.get_attribute("open") is not None, "Enter on the summary opens the menu"
    # The first action, reached with Tab: disabling asks on its own page.
    keyboard(browser, Keys.TAB)
    focused = browser.switch_to.active_element
    assert focused.text == "Disable…", focused.get_attribute("outerHTML")
    page = browser.find_element(By.TAG_NAME, "html")
    keyboard(browser, Keys.ENTER)
    wait_until_gone(browser, page)
    assert "/disable" in browser.current_url and TESTER in browser.find_element(By.TAG_NAME, "h1").text
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, ".confirm button.danger").click()
    wait_until_gone(browser, page)
    assert "Account disabled." in browser.find_element(By.CSS_SELECTOR, ".notice").text
    menu = row_menu(browser, TESTER)
    assert "disabled" in menu.find_element(By.XPATH, "../../..").text

    # Enable again from the menu's own form, by keyboard: Space opens, Tab, Enter.
    summary = menu.find_element(By.TAG_NAME, "summary")
    browser.execute_script("arguments[0].focus()", summary)
    keyboard(browser, Keys.SPACE)
    assert menu.get_attribute("open") is not None, "Space on the summary opens the menu"
    keyboard(browser, Keys.TAB)
    assert browser.switch_to.active_element.text == "Enable"
    page = browser.find_element(By.TAG_NAME, "html")
    keyboard(browser, Keys.ENTER)
    wait_until_gone(browser, page)
    assert "Account enabled." in browser.find_element(By.CSS_SELECTOR, ".notice").text


def test_a_refused_composer_marks_its_field_and_the_summary_links_to_it(panel, browser):
    browser.set_window_size(390, 900)
    sign_in(browser, panel["base"], "marketing")
    browser.get(panel["base"] + "/campaigns/new")
    assert browser.find_element(By.ID, "variants").get_attribute("open") is None, "variants B to D folded"
    browser.find_element(By.ID, "body").send_keys("A message without a title")
    browser.execute_script("document.getElementById('variants').open = true")
    browser.find_element(By.ID, "title_b").send_keys("Only a title")
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "#composer button.primary").click()
    wait_until_gone(browser, page)
    title = browser.find_element(By.ID, "title")
    assert title.get_attribute("aria-invalid") == "true"
    described = browser.find_element(By.ID, title.get_attribute("aria-describedby"))
    assert "Write a title" in described.text
    assert browser.find_element(By.ID, "variants").get_attribute("open") is not None, "what was typed in variant B is in sight"
    assert browser.find_element(By.ID, "body").get_attribute("value") == "A message without a title"
    link = browser.find_element(By.CSS_SELECTOR, ".error-summary a[href='#title']")
    link.click()
    assert browser.execute_script("return location.hash") == "#title"
    assert violations(browser) == []
    # The refusal's 400 is meant: drained here, so that a later test's console check does not read it.
    browser.get_log("browser")
