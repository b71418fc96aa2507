"""The global control group in a browser: an admin puts a share in force on its settings page
and a refused share says why; axe finds nothing serious at a laptop's and a phone's width."""
from selenium.webdriver.common.by import By

from conftest import sign_in, wait_until_gone
from test_pages import violations


def put_in_force(browser):
    """Presses the settings form's button (the header's sign-out form comes first on the page)."""
    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait_until_gone(browser, page)


def test_an_admin_sets_the_share_and_a_refused_one_says_why(panel, browser):
    base = panel["base"]
    browser.set_window_size(1366, 900)
    sign_in(browser, base, "admin")
    browser.get(base + "/settings/global-control")
    assert "Global control group" in browser.find_element(By.TAG_NAME, "h1").text
    assert violations(browser) == []
    field = browser.find_element(By.NAME, "percent")
    field.clear()
    field.send_keys("7")
    put_in_force(browser)
    assert "Changed. The new share is in force now." in browser.find_element(By.CSS_SELECTOR, "main").text
    assert "7%" in browser.find_element(By.ID, "current-share").text
    rows = [row.text for row in browser.find_elements(By.CSS_SELECTOR, "main table tbody tr")]
    assert rows and "7%" in rows[0] and "admin@example.com" in rows[0], rows
    assert violations(browser) == []

    # 25 is past the form's own maximum: the browser would stop it, so it is sent as typed.
    browser.execute_script("document.querySelector('input[name=percent]').removeAttribute('max')")
    field = browser.find_element(By.NAME, "percent")
    field.clear()
    field.send_keys("25")
    put_in_force(browser)
    problem = browser.find_element(By.ID, "problem").text
    assert "Not changed: the share must be a whole percent from 0 to 20" in problem, problem
    assert browser.find_element(By.NAME, "percent").get_attribute("value") == "25", "what was typed stays"
    assert "7%" in browser.find_element(By.ID, "current-share").text
    browser.set_window_size(390, 844)
    assert violations(browser) == []
    browser.set_window_size(1366, 900)

    # Back to none: the other tests on this panel count audiences without a control group.
    field = browser.find_element(By.NAME, "percent")
    field.clear()
    field.send_keys("0")
    put_in_force(browser)
    assert "0%" in browser.find_element(By.ID, "current-share").text
