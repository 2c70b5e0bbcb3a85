"""The explorer's page in a real browser: headless Chromium, driven by Selenium through
chromedriver, loads `fairy-egt explore KQ.KR`'s page, sets a K+Q against K+R position up (a
FEN typed in, then a man taken off, put back and moved by clicking, the colours swapped and
back, the board flipped and back), plays the best move by clicking
it, goes back, and checks at each step that the board, the value and the move list show what
the table says; then draws the table's pictures (histograms, a heat map). Screenshots of
each step go to the directory given.

usage: explorer_browser.py FAIRY_EGT SCREENSHOT_DIR
"""

import os
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

KQKR = "8/8/8/8/2r5/8/2k5/K6Q w - - 0 1"


def start_explorer(binary):
    """The explorer of KQ.KR on a free port, and its address."""
    cwd = tempfile.mkdtemp(prefix="explorer-")
    server = subprocess.Popen(
        [binary, "explore", "KQ.KR", "--port", "0", "--tables", "-"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = server.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), url
    return server, url


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,800"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main():
    binary, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    server, url = start_explorer(binary)
    driver = browser()
    wait = WebDriverWait(driver, 30)
    try:

        def shown(fen, value):
            """Waits until the page shows `fen` with the value text `value`."""
            wait.until(
                lambda d: d.find_element(By.ID, "fen").get_attribute("value") == fen
                and value in d.find_element(By.ID, "value").text
            )

        def square(name):
            return driver.find_element(By.CSS_SELECTOR, f'#board td[title="{name}"]')

        def moves():
            rows = driver.find_elements(By.CSS_SELECTOR, "#moves tbody tr")
            return [[c.text for c in r.find_elements(By.TAG_NAME, "td")] for r in rows]

        driver.get(url)
        fen_box = driver.find_element(By.ID, "fen")
        fen_box.clear()
        fen_box.send_keys(KQKR)
        driver.find_element(By.CSS_SELECTOR, "#form button[type=submit]").click()
        shown(KQKR, "KQ.KR, White to move: win in 35")
        assert square("h1").text == "Q" and square("c4").text == "R"
        table = moves()
        # 21 legal moves, the best (a win in 35) first, coloured as wins.
        assert len(table) == 21, table
        assert table[0][:2] == ["h1b1", "win in 35"], table[0]
        assert "win" in driver.find_elements(By.CSS_SELECTOR, "#moves tbody tr")[0].get_attribute(
            "class"
        )
        driver.save_screenshot(os.path.join(shots, "explorer-kqkr.png"))

        # Set-up by clicking: take the Queen off h1 (empty box), then put her back.
        man = driver.find_element(By.ID, "man")
        man.clear()
        square("h1").click()
        shown("8/8/8/8/2r5/8/2k5/K7 w - - 0 1", "K.KR, White to move: loss in")
        assert square("h1").text == ""
        man.send_keys("Q")
        square("h1").click()
        shown(KQKR, "win in 35")
        # Moving a man: with the box empty, pick the Queen up on h1 and put her down on h3,
        # then back.
        man.clear()
        square("h1").click()
        assert man.get_attribute("value") == "Q"
        shown("8/8/8/8/2r5/8/2k5/K7 w - - 0 1", "K.KR")
        square("h3").click()
        shown("8/8/8/8/2r5/7Q/2k5/K7 w - - 0 1", "KQ.KR, White to move: win in")
        man.clear()
        square("h3").click()
        shown("8/8/8/8/2r5/8/2k5/K7 w - - 0 1", "K.KR")
        square("h1").click()
        shown(KQKR, "win in 35")
        # Swapping the colours makes it K+R against K+Q; twice, the position again.
        driver.find_element(By.ID, "swap").click()
        shown("8/8/8/8/2R5/8/2K5/k6q w - - 0 1", "KR.KQ, White to move")
        driver.find_element(By.ID, "swap").click()
        shown(KQKR, "win in 35")
        # Flipping the board turns the view: h1 in the top left corner, then a8 again.
        first = lambda: driver.find_element(By.CSS_SELECTOR, "#board td").get_attribute("title")
        driver.find_element(By.ID, "flip").click()
        assert first() == "h1", first()
        driver.find_element(By.ID, "flip").click()
        assert first() == "a8", first()

        # Click the best move: the board, the value and the list change as the table says.
        driver.find_elements(By.CSS_SELECTOR, "#moves tbody tr")[0].click()
        after = "8/8/8/8/2r5/8/2k5/KQ6 b - - 0 1"
        shown(after, "KQ.KR, Black to move: loss in 34")
        assert square("b1").text == "Q" and square("h1").text == ""
        table = moves()
        assert all(row[1].startswith("loss") for row in table), table
        assert table[0][1] == "loss in 34", table[0]
        driver.save_screenshot(os.path.join(shots, "explorer-after-best-move.png"))

        # Back to the start.
        driver.find_element(By.ID, "back").click()
        shown(KQKR, "win in 35")
        link = driver.find_element(By.ID, "link").get_attribute("href")
        assert "fen=8%2F8%2F8%2F8%2F2r5" in link, link

        # The pictures: the histograms and the black Rook's heat map, White to move.
        driver.find_element(By.ID, "draw").click()
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#heat td")) == 64)
        title = driver.find_element(By.ID, "title").text
        assert title.startswith("KQ.KR: 8863768 of 8952608 positions won with White to move"), title
        assert driver.find_element(By.ID, "who").get_attribute("value") == "3"
        assert len(driver.find_elements(By.CSS_SELECTOR, "#wtm div")) == 35
        shares = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "#heat td")]
        assert all(s.endswith("%") for s in shares), shares
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        driver.save_screenshot(os.path.join(shots, "explorer-pictures.png"))
        print("explorer_browser: page set up, best move played and taken back, pictures drawn")
    finally:
        driver.quit()
        server.kill()


if __name__ == "__main__":
    main()
