"""The real `tutor serve` in headless Chromium: Home -> Practice -> answer -> verdict, then no process left.

The page is xterm.js drawing on a canvas, so its text is not in the DOM. A script installed
before the page's own catches textual-serve's terminal object as it is built (the first object
that gets a `fitAddon`) and the test reads the terminal's screen buffer: the exact characters
the learner sees. A screenshot of the page is saved under build/test-artifacts/ (git-ignored).

Chromium is Debian's (`chromium`, `chromium-driver`, installed by .ci/run), driven by selenium
through the system chromedriver: nothing is downloaded. Without them the test is skipped and
says why.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, REPO, run_tutor
from tutor.commands.serve import allowed_hosts, is_loopback

CHROMIUM = next((path for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser", shutil.which("chromium") or "")
                 if path and Path(path).is_file()), None)
CHROMEDRIVER = next((path for path in ("/usr/bin/chromedriver", shutil.which("chromedriver") or "")
                     if path and Path(path).is_file()), None)
ARTIFACTS = Path(os.environ.get("TUTOR_TEST_ARTIFACTS", REPO / "build" / "test-artifacts"))
MARK = "TUTOR_SERVE_TEST_RUN"
"""Set in the server's environment only: every process it starts inherits it, Chromium does not."""

# Record the page's window.open calls (links, downloads) instead of opening anything, and catch
# textual.js's terminal wrapper when its constructor assigns `this.fitAddon`, then let
# the assignment land as an ordinary property.
HOOK = """
window.__tutorOpened = [];
window.open = (url, target) => { window.__tutorOpened.push([url, target]); return null; };
Object.defineProperty(Object.prototype, 'fitAddon', {configurable: true, set(value) {
  Object.defineProperty(this, 'fitAddon', {value, writable: true, configurable: true, enumerable: true});
  window.__tutorTerminal = this;
}});
"""
SCREEN_TEXT = """
const wrapper = window.__tutorTerminal, terminal = wrapper && wrapper.terminal;
if (!terminal) return null;
const buffer = terminal.buffer.active, rows = [];
for (let i = 0; i < terminal.rows; i++) {
  const line = buffer.getLine(buffer.viewportY + i);
  rows.push(line ? line.translateToString(true) : '');
}
return rows.join('\\n');
"""


def _skip_reason() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        return "textual-serve is not installed (pip install -e '.[serve]')"
    if CHROMIUM is None or CHROMEDRIVER is None:
        return "Chromium or its driver is absent (apt-get install chromium chromium-driver)"
    return None


def _serve_missing() -> str | None:
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        return "textual-serve is not installed (pip install -e '.[serve]')"
    return None


pytestmark = pytest.mark.slow
needs_serve = pytest.mark.skipif(_serve_missing() is not None, reason=str(_serve_missing()))
needs_chromium = pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))
LAB_FIXTURE = REPO / "tests" / "labs" / "fixtures"
F5 = "\x1b[15~"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def marked_pids(run_id: str) -> set[int]:
    from tutor.labs.procs import pids_with_env

    return set(pids_with_env(MARK, run_id))


def wait_for(predicate, timeout: float, what: str, detail=lambda: ""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}\n{detail()}")


class Page:
    """One Chromium window showing the tutor; `screen()` is the terminal's text."""

    def __init__(self, driver, url: str):
        self.driver = driver
        self.url = url

    def screen(self) -> str:
        return self.driver.execute_script(SCREEN_TEXT) or ""

    def expect(self, text: str, timeout: float = 20) -> str:
        return wait_for(lambda: text in self.screen() and self.screen(), timeout, repr(text), self.screen)

    def press(self, keys: str) -> None:
        from selenium.webdriver.common.by import By

        self.driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea").send_keys(keys)

    def click_text(self, text: str) -> None:
        """A mouse click on the middle of the first `text` on the screen, as a learner would click."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        rows = self.screen().split("\n")
        row = next(index for index, line in enumerate(rows) if text in line)
        column = rows[row].index(text) + len(text) // 2
        grid = self.driver.execute_script(
            "const t = window.__tutorTerminal.terminal, r = t.element.querySelector('.xterm-screen')"
            ".getBoundingClientRect(); return [r.width, r.height, t.cols, t.rows];")
        width, height, columns, lines = grid
        x = (column + 0.5) * width / columns - width / 2   # offsets from the element's centre
        y = (row + 0.5) * height / lines - height / 2
        element = self.driver.find_element(By.CSS_SELECTOR, ".xterm-screen")
        ActionChains(self.driver).move_to_element_with_offset(element, int(x), int(y)).click().perform()

    def opened(self) -> list:
        return self.driver.execute_script("return window.__tutorOpened || [];")


def start_chromium(profile: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # The network is closed: nothing may try to reach out (updates, sync, QUIC probes).
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1280,860"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def open_app(driver, url: str) -> Page:
    """The tutor in the current window (the hook is per window, so it is installed here)."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    driver.get(url)
    page = Page(driver, url)
    page.expect("Sections", timeout=25)  # Home
    return page


PLAYBOOK = "https://huggingface.co/spaces/nanotron/ultrascale-playbook"
SENTENCE = "Mixed-precision Adam keeps 16 bytes per parameter."


@pytest.fixture
def content(request, tmp_path):
    """The fixture content; with the param "with-link", a copy whose first lesson section links out."""
    if getattr(request, "param", None) != "with-link":
        return getattr(request, "param", FIXTURES / "content")
    copy = tmp_path / "content"
    shutil.copytree(FIXTURES / "content", copy)
    lesson = copy / "lessons" / "01-basics.yaml"
    lesson.write_text(lesson.read_text().replace(SENTENCE, f"{SENTENCE} See [the Playbook]({PLAYBOOK}).", 1))
    return copy


@pytest.fixture
def served(tmp_path, tutor_home, content):
    """`tutor serve` on a free loopback port, with the fixture content; stopped (and checked) after."""
    run_id = uuid.uuid4().hex
    port = free_port()
    env = {**os.environ, "TUTOR_CONTENT": str(content), "TUTOR_HOME": str(tutor_home), MARK: run_id}
    server = subprocess.Popen([sys.executable, "-m", "tutor", "serve", "--port", str(port)], cwd=str(REPO), env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}/"
        wait_for(lambda: _answers(port), 20, "the server to listen", lambda: _drain(server))
        yield server, url, run_id
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        for pid in marked_pids(run_id):  # never leave one behind, even when the test failed
            os.kill(pid, signal.SIGKILL)


def _answers(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _drain(server: subprocess.Popen) -> str:
    if server.poll() is None:
        return "(server still running)"
    return server.stdout.read()


@needs_serve
@needs_chromium
@pytest.mark.timeout(90)
@pytest.mark.parametrize("content", ["with-link"], indirect=True)
def test_practice_answer_in_the_browser_then_nothing_left(served, tmp_path, tutor_home):
    server, url, run_id = served
    driver = start_chromium(tmp_path / "chromium-profile")
    try:
        page = open_app(driver, url)
        page.press("l")                       # Lessons
        page.expect("16 bytes per")
        page.click_text("the Playbook")       # a link in the lesson opens in a new browser tab
        wait_for(lambda: page.opened(), 10, "the link to open", lambda: page.screen())
        assert page.opened() == [[PLAYBOOK, "_blank"]]
        page.press("p")                       # practise this section
        page.expect("Questions")
        page.press("\n")                      # open the highlighted question
        page.expect("How many bytes")
        page.press("1120 GB\n")               # a numeric answer
        screen = page.expect("Right")         # the verdict, read from the page
        assert "1120" in screen
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert driver.save_screenshot(str(ARTIFACTS / "serve-practice-verdict.png"))

        # A second tab: its own app process, opened while the first one still runs.
        first = driver.current_window_handle
        first_tabs = marked_pids(run_id) - {server.pid}
        assert len(first_tabs) == 1, first_tabs
        driver.switch_to.new_window("tab")
        open_app(driver, url)
        second_tabs = marked_pids(run_id) - {server.pid} - first_tabs
        assert len(second_tabs) == 1, second_tabs

        # Closing the first tab ends its app process, and only that one.
        driver.switch_to.window(first)
        driver.close()
        wait_for(lambda: not (marked_pids(run_id) & first_tabs), 15, "the closed tab's app to end")
        assert second_tabs <= marked_pids(run_id)

        # Ctrl-C stops the server with the second tab still open: nothing it started is left.
        server.send_signal(signal.SIGINT)
        assert server.wait(20) == 0, _drain(server)
        assert marked_pids(run_id) == set()
        output = server.stdout.read()
        assert "Traceback" not in output and "Exception ignored" not in output, output  # a clean stop
    finally:
        driver.quit()

    # The answer given in the browser is in the learner's history.
    from tutor.store import Store, attempts

    with Store(tutor_home / "tutor.sqlite3") as store:
        assert [(a.question_id, a.correct) for a in attempts(store)] == [("memory-total", True)]


class Tab:
    """A browser tab as textual-serve sees it: a WebSocket that sends keys and receives the screen."""

    def __init__(self, url: str):
        self.url = url.replace("http://", "ws://") + "ws?width=130&height=40"
        self.received = b""
        self.messages: list = []
        """The text messages textual-serve sent the page (open_url, deliver_file_start)."""

    async def __aenter__(self):
        import aiohttp

        self.session = aiohttp.ClientSession()
        origin = self.url.split("/ws", 1)[0].replace("ws://", "http://")
        self.socket = await self.session.ws_connect(self.url, headers={"Origin": origin})
        return self

    async def __aexit__(self, *exc):
        await self.socket.close()
        await self.session.close()

    async def receive(self, what: str = "more") -> None:
        message = await self.socket.receive()
        if message.type.name in ("CLOSE", "CLOSED", "ERROR"):
            raise AssertionError(f"the tab closed before showing {what}")
        if isinstance(message.data, bytes):
            self.received += message.data
        elif isinstance(message.data, str):
            self.messages.append(json.loads(message.data))

    async def expect(self, data: bytes, timeout: float = 30) -> None:
        import asyncio

        async def read() -> None:
            while data not in self.received:
                await self.receive(repr(data))

        await asyncio.wait_for(read(), timeout)

    async def press(self, keys: str) -> None:
        await self.socket.send_json(["stdin", keys])


async def start_a_lab_run(url: str, run_id: str, server_pid: int) -> tuple[Tab, set[int]]:
    """A tab on Labs, its lab run started (F5) and its ranks up; returns the tab and its processes."""
    tab = await Tab(url).__aenter__()
    await tab.expect(b"Sections")
    await tab.press("b")                 # Labs
    await tab.expect(b"Hang demo")
    await tab.press(F5)                  # run the shipped program: two ranks that hang
    import asyncio

    deadline = time.monotonic() + 40
    while len(marked_pids(run_id) - {server_pid}) < 4:  # the tab's app, the launcher, two ranks
        assert time.monotonic() < deadline, f"the lab did not start: {marked_pids(run_id)}"
        await asyncio.sleep(0.2)
    return tab, marked_pids(run_id) - {server_pid}


@needs_serve
@pytest.mark.timeout(120)
@pytest.mark.parametrize("content", [LAB_FIXTURE])
async def test_a_lab_run_from_a_tab_ends_with_the_tab_and_with_a_killed_server(served):
    server, url, run_id = served
    # Closing the tab mid-run: the tab's app, the launcher and every rank end.
    tab, first = await start_a_lab_run(url, run_id, server.pid)
    await tab.__aexit__(None, None, None)
    wait_for(lambda: not (marked_pids(run_id) & first), 20, "the closed tab's lab processes to end",
             lambda: str(marked_pids(run_id)))
    # The server killed outright (no clean-up of its own) mid-run: nothing is left either.
    tab, second = await start_a_lab_run(url, run_id, server.pid)
    server.kill()
    server.wait(10)
    wait_for(lambda: not marked_pids(run_id), 20, "every process of the killed server to end",
             lambda: str(marked_pids(run_id)))
    await tab.__aexit__(None, None, None)


# -- who may connect (no browser needed)

@pytest.mark.parametrize("host", ["127.0.0.1", "127.5.5.5", "::1", "[::1]", "localhost", "LocalHost"])
def test_loopback_hosts(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com",
                                  "localhost.example.com", "127.0.0.1.example.com", ""])
def test_hosts_other_machines_can_reach_are_not_loopback(host):
    assert not is_loopback(host)


def test_on_loopback_only_loopback_names_of_this_port_are_answered():
    hosts = allowed_hosts("127.0.0.1", 8123)
    assert {"127.0.0.1:8123", "localhost:8123", "[::1]:8123"} <= hosts
    assert not {"127.0.0.1:8000", "evil.example:8123", "localhost", "127.0.0.1"} & hosts
    assert "localhost" in allowed_hosts("localhost", 80)  # a browser leaves out port 80
    assert allowed_hosts("0.0.0.0", 8123) is None          # remote (with --allow-remote): any name


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "localhost.example.com"])
def test_another_host_without_allow_remote_is_refused_in_one_line(host):
    result = run_tutor("serve", "--host", host, "--port", str(free_port()), timeout=30)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "--allow-remote" in result.stderr and "run labs" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_a_port_in_use_is_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_tutor("serve", "--port", str(port), timeout=30)
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"tutor: port {port} on 127.0.0.1 is already in use; pick another with --port N\n"


@pytest.mark.parametrize("port", ["0", "65536", "http"])
def test_a_bad_port_is_one_line(port):
    result = run_tutor("serve", "--port", port, timeout=30)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "--port" in result.stderr


def test_without_textual_serve_the_install_command_is_given():
    probe = ("import sys; sys.modules['textual_serve'] = None\n"  # any import of it now fails
             "from tutor.cli import main\n"
             f"raise SystemExit(main(['serve', '--port', '{free_port()}']))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=30, cwd=str(REPO))
    assert result.returncode == 1
    assert result.stderr == ("tutor: `tutor serve` needs textual-serve, which this Python does not have: in the tutor's "
                             "checkout, pip install '.[serve]'\n")


def _get(port: int, path: str, headers: dict) -> tuple[int, str]:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


UPGRADE = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
           "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


@needs_serve
@pytest.mark.timeout(60)
def test_pages_of_other_sites_cannot_reach_the_app(served):
    server, url, run_id = served
    port = int(url.rsplit(":", 1)[1].strip("/"))
    status, page = _get(port, "/", {"Host": f"localhost:{port}"})
    assert status == 200 and f"ws://localhost:{port}/ws" in page  # the page names the server as reached
    # DNS rebinding: a site's own name resolving to 127.0.0.1 (its page is then same-origin with itself).
    assert _get(port, "/", {"Host": f"evil.example:{port}"})[0] == 403
    assert _get(port, "/ws", {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}",
                              **UPGRADE})[0] == 403
    # Cross-site WebSocket: a page elsewhere opening ws://127.0.0.1:PORT/ws (browsers allow that).
    assert _get(port, "/ws", {"Host": f"127.0.0.1:{port}", "Origin": "https://evil.example", **UPGRADE})[0] == 403
    assert _get(port, "/download/x", {"Host": f"evil.example:{port}"})[0] == 403
    assert marked_pids(run_id) == {server.pid}  # no tab was started for any of them
    assert _get(port, "/ws", {"Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}", **UPGRADE})[0] == 101


@needs_serve
@pytest.mark.timeout(90)
@pytest.mark.parametrize("content", [LAB_FIXTURE])
async def test_a_trace_of_the_shown_run_is_offered_and_downloads_whole(served, tmp_path):
    """The palette's "Download …" delivers the file through textual-serve, byte for byte.

    The trace is large (many chunks) and the screen busy while it goes: Textual's web driver
    writes a chunk from its input thread while the app draws from another, and without
    whole, serialised writes the two interleave on the pipe (seen: a truncated download and a
    tab whose stream no longer decodes).
    """
    import asyncio

    import aiohttp

    from tutor.store import Store, record_lab_run

    server, url, run_id = served
    trace = tmp_path / "traces" / "rank0.trace.json"
    trace.parent.mkdir()
    events = [{"name": f"op{i}", "ph": "X", "ts": i, "dur": 1, "pid": 0, "tid": 0} for i in range(40_000)]
    trace.write_text(json.dumps({"traceEvents": events}))
    with Store() as store:
        record_lab_run(store, "hang-demo", "run", "ok", world_size=2,
                       evidence={"lab": "hang-demo", "outcome": "ok", "world_size": 2, "ranks": [], "metrics": {},
                                 "trace_files": [str(trace)], "launcher": {}})
    async with Tab(url) as tab:
        await tab.expect(b"Sections")
        await tab.press("b")                      # Labs: the lab's latest run, with its trace, is shown
        await tab.expect(b"trace file(s) ready")  # and offered
        await tab.press("\x10")                   # ctrl+p: the command palette
        await tab.expect(b"Search for commands")
        await tab.press("Download")
        await tab.expect(b"a trace of the last lab run")
        await tab.press("\r")
        deadline = time.monotonic() + 20
        while not any(message[0] == "deliver_file_start" for message in tab.messages):
            assert time.monotonic() < deadline, tab.messages
            await asyncio.wait_for(tab.receive("the download"), 20)
        key = next(message[1] for message in tab.messages if message[0] == "deliver_file_start")
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{url}download/{key}") as response:
                assert response.status == 200
                assert "attachment; filename=rank0.trace.json" in response.headers["Content-Disposition"]
                body = await response.read()
        assert len(body) == trace.stat().st_size and body == trace.read_bytes()
        # The tab still works after the download: its stream was not corrupted.
        tab.received = b""
        await tab.press("\x1b")                   # Esc: Home
        await tab.expect(b"Sections")


def _packets(stream: bytes) -> list[bytes]:
    """Split textual-serve's stream into packets (type byte, 4-byte length, payload)."""
    packets = []
    while stream:
        size = int.from_bytes(stream[1:5], "big")
        packets.append(stream[5:5 + size])
        stream = stream[5 + size:]
    return packets


@pytest.mark.timeout(60)
@pytest.mark.parametrize("serialised", [True])  # False (the driver's bare os.write) fails: seen 5 of 5
def test_packets_written_by_two_threads_reach_the_server_whole(serialised):
    """Textual's web driver writes with a bare os.write from two threads; tutor's tab serialises whole writes.

    Two writers of 128 KiB packets into a pipe whose reader is slow: the pipe fills, a bare
    write is split, and the other thread's packet lands inside it.
    """
    import threading

    from tutor.commands.serve_tab import whole_writes

    size, count = 128 * 1024, 4
    read_end, write_end = os.pipe()
    write = whole_writes(write_end) if serialised else (lambda data: os.write(write_end, data))
    packets = {name: b"D" + size.to_bytes(4, "big") + name * size for name in (b"a", b"b")}
    threads = [threading.Thread(target=lambda name=name: [write(packets[name]) for _ in range(count)])
               for name in packets]
    for thread in threads:
        thread.start()
    received, expected = b"", sum(len(packet) for packet in packets.values()) * count
    try:
        while len(received) < expected:
            time.sleep(0.001)  # a slow reader: the pipe fills up
            received += os.read(read_end, 16 * 1024)
    finally:
        for thread in threads:
            thread.join(10)
        os.close(write_end)
        os.close(read_end)
    assert sorted(_packets(received)) == sorted([b"a" * size] * count + [b"b" * size] * count)
