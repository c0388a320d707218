"""Saved web pages: main content, title and headings kept, navigation dropped, charsets, tables, inert."""

from __future__ import annotations

import socket
from types import SimpleNamespace
from pathlib import Path

import pytest

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.ingest.loaders.html import decode_html, load_html, nesting_depth

NAV = '<ul><li><a href="/">Home</a></li><li><a href="/p">Pricing</a></li><li><a href="/c">Careers</a></li></ul>'


def _page(title: str, body: str, head: str = '<meta charset="utf-8">') -> str:
    return (f"<!DOCTYPE html><html><head>{head}<title>{title}</title><script>var secret = 'scriptword';</script>"
            f"<style>p {{ color: red }}</style></head><body><header><a href='/'>SiteLogo</a>{NAV}</header>"
            f"<nav>{NAV}</nav><div class='content'>{body}</div><div class='sidebar'>Related posts {NAV}</div>"
            f"<footer>Copyright Example Corp</footer></body></html>")


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_english_page_keeps_content_and_headings_without_navigation(tmp_path: Path) -> None:
    body = ("<h1>Tidal energy</h1><p>Tidal turbines convert the kinetic energy of moving water.</p>"
            "<h2>Costs</h2><p>The levelised cost fell to 150 euros per megawatt hour.</p>"
            "<h3>Outlook</h3><p>Arrays of <b>forty</b> turbines are planned.</p>")
    doc = load_html(_write(tmp_path, "tidal.html", _page("Tidal energy", body).encode()))
    paths = [s.heading_path for s in doc.sections]
    assert paths == [("Tidal energy",), ("Tidal energy", "Costs"), ("Tidal energy", "Costs", "Outlook")]
    text = "\n".join(s.text for s in doc.sections)
    assert "kinetic energy of moving water" in text and "Arrays of forty turbines are planned." in text
    for boiler in ("Careers", "Pricing", "SiteLogo", "Copyright", "Related posts", "scriptword", "color"):
        assert boiler not in text
    assert all(s.page is None for s in doc.sections)


def test_chinese_page_declared_gb2312(tmp_path: Path) -> None:
    body = "<h1>长江流域</h1><p>长江是中国最长的河流，全长约六千三百公里。</p><h2>水电</h2><p>三峡大坝是世界上最大的水电站。</p>"
    page = _page("长江", body, head='<meta http-equiv="Content-Type" content="text/html; charset=gb2312">')
    doc = load_html(_write(tmp_path, "yangtze.htm", page.encode("gb18030")))
    assert doc.sections[0].heading_path == ("长江", "长江流域")
    assert "全长约六千三百公里" in doc.sections[0].text
    assert doc.sections[1].heading_path == ("长江", "长江流域", "水电")
    assert "三峡大坝" in doc.sections[1].text


def test_charset_detected_when_undeclared_or_wrong() -> None:
    text = "<p>北京是中华人民共和国的首都，也是全国的政治和文化中心。</p>"
    assert "首都" in decode_html(text.encode("gb18030"))  # no declaration: detected like a text file
    wrong = '<meta charset="utf-8">' + text
    assert "首都" in decode_html(wrong.encode("gb18030"))  # declared UTF-8 but not UTF-8: detected
    assert "首都" in decode_html(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert "首都" in decode_html(("\ufeff" + text).encode("utf-16-le"))
    traditional = "<p>臺灣的首都是臺北，這裡有許多博物館。</p>"
    assert "許多博物館" in decode_html(traditional.encode("big5"), declared="big5")  # e.g. an e-mail part's charset


def test_data_table_becomes_markdown_with_header(tmp_path: Path) -> None:
    body = ("<h1>Staff</h1><table><tr><th>Name</th><th>Office</th></tr><tr><td>Ann Lee</td><td>Room 12</td></tr>"
            "<tr><td>王伟</td><td>Room 7</td></tr></table>")
    doc = load_html(_write(tmp_path, "staff.html", _page("Staff", body).encode()))
    assert "| Name | Office |\n| --- | --- |\n| Ann Lee | Room 12 |\n| 王伟 | Room 7 |" in doc.sections[0].text


def test_long_table_is_cut_into_row_groups_that_repeat_the_header(tmp_path: Path) -> None:
    rows = "".join(f"<tr><td>Person {i}</td><td>Room {i}</td></tr>" for i in range(40))
    body = f"<h1>Rooms</h1><p>Who sits where.</p><table><tr><th>Name</th><th>Room</th></tr>{rows}</table>"
    doc = load_html(_write(tmp_path, "rooms.html", _page("Rooms", body).encode()), SimpleNamespace(table_chars=120))
    groups = doc.sections[1:]
    assert len(groups) > 3 and all(s.text.startswith("| Name | Room |\n| --- | --- |\n") for s in groups)
    assert all(len(s.text) <= 120 and s.heading_path == ("Rooms",) for s in groups)
    assert "| Person 39 | Room 39 |" in groups[-1].text


def test_layout_table_read_as_blocks(tmp_path: Path) -> None:
    long = "Layout pages put the whole article in one cell. " * 10
    body = f"<table><tr><td><h1>Old site</h1><p>{long}</p></td><td>{NAV}</td></tr></table>"
    doc = load_html(_write(tmp_path, "old.html", _page("Old", body).encode()))
    assert doc.sections[-1].heading_path == ("Old", "Old site")
    assert "|" not in doc.sections[-1].text


def test_main_element_is_the_content(tmp_path: Path) -> None:
    article = "<p>" + "The committee approved the budget for the new library. " * 5 + "</p>"
    html = (f"<html><body><div>Top banner text</div><main><h1>Budget</h1>{article}</main>"
            f"<div>Unrelated widget text</div></body></html>")
    doc = load_html(_write(tmp_path, "main.html", html.encode()))
    text = "\n".join(s.text for s in doc.sections)
    assert "approved the budget" in text and "Top banner" not in text and "Unrelated widget" not in text


def test_page_of_links_keeps_its_links(tmp_path: Path) -> None:
    items = "".join(f'<li><a href="https://example.org/{i}">Reading list item {i}</a></li>' for i in range(20))
    html = f"<html><head><title>Bookmarks</title></head><body><h1>Bookmarks</h1><ul>{items}</ul></body></html>"
    doc = load_html(_write(tmp_path, "bookmarks.html", html.encode()))
    assert "Reading list item 19" in doc.sections[0].text


def test_inert_no_fetch(tmp_path: Path) -> None:
    """Images, stylesheets, scripts and frames pointing at a listening port are never fetched."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.setblocking(False)
    url = f"http://127.0.0.1:{server.getsockname()[1]}"
    html = (f'<html><head><link rel="stylesheet" href="{url}/s.css"><script src="{url}/a.js"></script>'
            f'<meta http-equiv="refresh" content="0; url={url}/r"></head><body><p>Quiet page text here.</p>'
            f'<img src="{url}/i.png"><iframe src="{url}/f"></iframe><object data="{url}/o"></object>'
            f'<script>fetch("{url}/x"); document.write("injected words")</script></body></html>')
    try:
        doc = load_html(_write(tmp_path, "inert.html", html.encode()))
        with pytest.raises(BlockingIOError):
            server.accept()
    finally:
        server.close()
    assert doc.sections[0].text == "Quiet page text here."


def test_empty_and_textless_pages_fail_clearly(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="empty"):
        load_html(_write(tmp_path, "e.html", b"  \n"))
    with pytest.raises(LoadError, match="no text"):
        load_html(_write(tmp_path, "s.html", b"<html><body><script>x()</script><img src=a.png></body></html>"))


def test_nesting_depth_counts_what_a_parser_keeps_open() -> None:
    assert nesting_depth("<div><div><p>a<p>b<br><img></div></div>") == 2
    assert nesting_depth("<ul>" + "<li>x" * 1000 + "</ul>") == 1  # <li> closes the previous one
    assert nesting_depth("<div>" * 50) == 50
    assert nesting_depth("<div>" + '<p><a name="x"/>text' * 5000 + "</div>") == 2  # a new <a> closes the last


def test_many_unclosed_anchors_are_read(tmp_path: Path) -> None:
    html = "<html><body>" + "".join(f'<p><a name="n{i}"/>Note {i} on the survey.</p>' for i in range(5000))
    doc = load_html(_write(tmp_path, "anchors.html", (html + "</body></html>").encode()))
    assert "Note 4999 on the survey." in doc.sections[0].text
