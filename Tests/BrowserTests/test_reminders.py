"""The reminder health page in a browser: every range by its tabs, at a laptop's and a
phone's width, nothing wider than the window, no console error, no serious axe-core
violation. With SCREENSHOT_DIR set, the page is saved at both widths."""
import os
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import sign_in, wait_until_gone
from test_pages import violations

RANGES = ["Last hour", "Last 24 hours", "Last 7 days", "Last 30 days"]


@pytest.mark.parametrize("width", [1366, 390])
def test_every_range_of_the_reminder_page_fits_the_window(panel, browser, width):
    browser.set_window_size(width, 900)
    sign_in(browser, panel["base"], "support")
    browser.get(panel["base"] + "/")
    browser.find_element(By.LINK_TEXT, "Reminders").click()
    browser.get_log("browser")
    for label in RANGES:
        page = browser.find_element(By.TAG_NAME, "html")
        browser.find_element(By.LINK_TEXT, label).click()
        wait_until_gone(browser, page)
        # Before the first count the page says so and reloads itself: wait for the figures.
        for _ in range(60):
            if browser.find_elements(By.ID, "figures"):
                break
            time.sleep(0.5)
            browser.refresh()
        assert browser.find_elements(By.ID, "figures"), f"{label}: the figures were counted"
        assert browser.find_element(By.CSS_SELECTOR, ".range-selector a[aria-current=true]").text == label
        assert browser.find_elements(By.CSS_SELECTOR, ".chart-panel svg[role=img]"), label
        assert "SC-002" in browser.page_source and "SC-011" in browser.page_source
        scroll, inner = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        wide = browser.execute_script("""
            return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
              .slice(0, 8).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));""")
        assert scroll <= inner, f"{label} at {width} px is {scroll} px wide: {wide}"
        errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
        assert errors == [], f"{label}: {errors}"
        if label in ("Last hour", "Last 30 days"):
            assert violations(browser) == [], f"{label} at {width} px"
        folder = os.environ.get("SCREENSHOT_DIR")
        if folder and label == "Last 24 hours":
            height = browser.execute_script("return document.documentElement.scrollHeight")
            browser.set_window_size(width, min(height + 120, 16000))
            browser.save_screenshot(os.path.join(folder, f"reminders-{width}.png"))
            browser.set_window_size(width, 900)
