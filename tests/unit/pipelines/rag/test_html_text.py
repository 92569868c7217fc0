"""HTML pages are indexed without their navigation, menus, headers and footers."""

from __future__ import annotations

from pipelines.rag.html_text import html_text

# What texinfo 6 (makeinfo --html) writes for one node of a manual: a navigation header
# without a <nav> element, the node's text, a menu table, and the same navigation again.
TEXINFO_PAGE = """<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html><head><title>Invoking (GNU Hello)</title>
<meta name="description" content="Invoking (GNU Hello)">
<link href="index.html#Top" rel="start" title="Top">
<style type="text/css">a.summary-letter {text-decoration: none}</style></head>
<body lang="en">
<a name="Invoking"></a>
<div class="header">
<p>
Next: <a href="Reporting-bugs.html#Reporting-bugs" accesskey="n" rel="next">Reporting bugs</a>,
Previous: <a href="Overview.html#Overview" accesskey="p" rel="prev">Overview</a>,
Up: <a href="index.html#Top" accesskey="u" rel="up">Top</a> &nbsp;
[<a href="index.html#SEC_Contents" title="Table of contents" rel="contents">Contents</a>]
[<a href="Concept-index.html#Concept-index" title="Index" rel="index">Index</a>]</p>
</div>
<hr>
<h2 class="chapter">2 Invoking <code>hello</code></h2>
<p>The format for running the <code>hello</code> program is:</p>
<div class="example"><pre class="example">hello <var>option</var> &hellip;</pre></div>
<p>With no options, <code>hello</code> prints the greeting &lsquo;Hello, world!&rsquo;.
The <samp>--traditional</samp> option prints the greeting in lowercase without punctuation.</p>
<table class="menu" border="0" cellspacing="0">
<tr><td align="left" valign="top">&bull; <a href="Options.html#Options" accesskey="1">Options</a>:
</td><td>&nbsp;&nbsp;</td><td align="left" valign="top"></td></tr>
<tr><td align="left" valign="top">&bull; <a href="Exit-status.html" accesskey="2">Exit status</a>:
</td><td>&nbsp;&nbsp;</td><td align="left" valign="top"></td></tr>
</table>
<hr>
<div class="header">
<p>
Next: <a href="Reporting-bugs.html#Reporting-bugs" accesskey="n" rel="next">Reporting bugs</a>,
Previous: <a href="Overview.html#Overview" accesskey="p" rel="prev">Overview</a>,
Up: <a href="index.html#Top" accesskey="u" rel="up">Top</a> &nbsp;
[<a href="index.html#SEC_Contents" title="Table of contents" rel="contents">Contents</a>]
[<a href="Concept-index.html#Concept-index" title="Index" rel="index">Index</a>]</p>
</div>
</body></html>
"""

# texinfo 7 puts the same line in <div class="nav-panel">; here without any class, so only
# the shape of the line gives it away.
TEXINFO7_NO_CLASS = """<html><body>
<div><p>Next: <a href="b.html">Bread</a>, Previous: <a href="a.html">Apples</a>,
Up: <a href="index.html">Top</a> [<a href="toc.html">Contents</a>]</p></div>
<h3>1.2 Croissants</h3>
<p>Croissants are laminated: butter folded into the dough again and again.</p>
</body></html>"""

SITE_WITH_MAIN = """<html><head><script>var tracking = "pageview";</script></head><body>
<header><a href="/">Bakery Blog</a> <a href="/about">About</a></header>
<nav><ul><li><a href="/a">Recipes</a></li><li><a href="/b">Tools</a></li></ul></nav>
<div class="sidebar">Subscribe to the newsletter for weekly recipes and more news!</div>
<main>
<article><header><h1>Sourdough at home</h1><p>By Ana, 3 May</p></header>
<p>A starter needs flour, water and about a week of daily feeding.</p>
<p>See <a href="/starter">the starter guide</a> for how to keep it alive.</p>
<ul class="tags"><li><a href="/t/bread">bread</a></li><li><a href="/t/yeast">yeast</a></li></ul>
</article>
<aside>Related: <a href="/x">Baguettes</a></aside>
<form><input name="q"><button>Search the blog</button></form>
</main>
<footer>© 2024 Bakery Blog · <a href="/privacy">Privacy</a></footer>
</body></html>"""


def test_a_texinfo_page_keeps_the_node_text_and_drops_its_navigation() -> None:
    text = html_text(TEXINFO_PAGE)
    assert "Next:" not in text and "Previous:" not in text and "Up:" not in text
    assert "Contents" not in text and "Index" not in text
    assert "Exit status" not in text and "Options" not in text  # the menu
    assert "a.summary-letter" not in text and "GNU Hello" not in text  # style, title
    assert text.splitlines() == [
        "2 Invoking hello",
        "The format for running the hello program is:",
        "hello option …",
        "With no options, hello prints the greeting ‘Hello, world!’. The --traditional option "
        "prints the greeting in lowercase without punctuation.",
    ]


def test_a_navigation_line_without_a_class_is_recognised() -> None:
    text = html_text(TEXINFO7_NO_CLASS)
    assert text.splitlines() == [
        "1.2 Croissants",
        "Croissants are laminated: butter folded into the dough again and again.",
    ]


def test_a_page_with_main_keeps_the_article_and_its_own_header() -> None:
    text = html_text(SITE_WITH_MAIN)
    assert text.splitlines() == [
        "Sourdough at home",
        "By Ana, 3 May",
        "A starter needs flour, water and about a week of daily feeding.",
        "See the starter guide for how to keep it alive.",
    ]


def test_a_page_without_structure_keeps_all_its_text() -> None:
    page = "Just a line of text<br>and another, with a <a href='x'>link</a> in it."
    assert html_text(page).splitlines() == [
        "Just a line of text",
        "and another, with a link in it.",
    ]
    plain = "<p>One paragraph.</p><p>Two paragraphs.</p><div>A div.</div>"
    assert html_text(plain).splitlines() == ["One paragraph.", "Two paragraphs.", "A div."]


def test_a_page_that_is_only_links_keeps_them() -> None:
    page = "<ul><li><a href='a'>Apples</a></li><li><a href='b'>Bread</a></li></ul>"
    assert html_text(page).splitlines() == ["Apples", "Bread"]


def test_hostile_pages() -> None:
    assert html_text("") == ""
    assert html_text("   \n ") == ""
    assert html_text("<script>alert('x')</script><style>p{}</style>") == ""
    assert html_text("<<<>>> <p>unclosed <b>bold <i>italic") == "<<<>>>\nunclosed bold italic"
    assert html_text("</p></div></body>stray end tags") == "stray end tags"
    # Deeper than the parser builds trees: the text at the bottom is still there.
    deep = "<div>" * 5000 + "deep text" + "</div>" * 5000
    assert html_text(deep) == "deep text"
    xhtml = '<?xml version="1.0" encoding="utf-8"?><html><body><p>x</p></body></html>'
    assert html_text(xhtml) == "x"


def test_a_huge_page_is_read_whole() -> None:
    # 80,000 blocks: a reader quadratic in the page's length would take hours here and end
    # at the suite's per-test timeout, with no clock in the test for a busy machine to lose.
    row = "<div class='post'><p>Paragraph {i} about bread and ovens.</p></div>\n"
    nav = "<div><a href='1'>one</a> <a href='2'>two</a></div>\n"
    page = "<html><body>" + "".join(row.format(i=i) + nav for i in range(40_000)) + "</body></html>"
    lines = html_text(page).splitlines()
    assert len(lines) == 40_000
    assert lines[-1] == "Paragraph 39999 about bread and ovens."
