"""The main text of an HTML page: its content without navigation bars, menus, headers, footers.

Pages exported from manuals (texinfo, DocBook, Sphinx) repeat "Next: … Previous: … Up: …
[Contents][Index]" and a menu of links on every page; indexed as they are, those lines match
every query and fill the snippets. The page's own structure says what is content:

1. ``<main>`` (or ``role="main"``), else a single ``<article>``, else ``<body>``, is the root.
2. Inside it, what is never content goes: scripts and styles, ``<nav>``, ``<aside>``,
   ``<form>``, ``<menu>``, page-level ``<header>``/``<footer>`` (not an article's own), ARIA
   landmarks for navigation, banners and sidebars, and the class names manual generators give
   their navigation (``nav-panel``, ``navheader``, ``header`` …).
3. Link-dense blocks go: a block whose text is mostly link text is a menu or a breadcrumb
   trail, not prose.

If that leaves no text (a page that *is* a list of links) the whole page's text is kept, and so
it is when the page cannot be read as a tree (nested deeper than the parser allows, or not
parseable at all): losing text silently is worse than indexing a menu.

Only lxml (already installed for python-docx) and the standard library are used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html.parser import HTMLParser
from typing import Any

LINK_DENSITY = 0.5
"""A block whose link text is more than this share of its text is navigation."""

_NEVER_CONTENT = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "head",
        "nav",
        "aside",
        "form",
        "menu",
        "button",
        "select",
        "iframe",
        "svg",
        "object",
        "embed",
    }
)
_PAGE_LANDMARKS = frozenset({"header", "footer"})
_ROLES = frozenset(
    {"navigation", "banner", "contentinfo", "complementary", "search", "menu", "menubar"}
)
# Whole class or id tokens that manual and site generators give their navigation:
# texinfo 7 "nav-panel", texinfo 6 "header", DocBook "navheader"/"navfooter", Sphinx
# "sphinxsidebar", texinfo menus "menu"/"mini-toc".
_NAV_NAMES = frozenset(
    {
        "nav",
        "navbar",
        "navigation",
        "nav-panel",
        "navheader",
        "navfooter",
        "breadcrumb",
        "breadcrumbs",
        "sidebar",
        "sphinxsidebar",
        "header",
        "footer",
        "menu",
        "mini-toc",
        "skip-link",
        "skiplink",
    }
)
_CONTAINERS = frozenset(
    {"div", "section", "p", "ul", "ol", "dl", "table", "tbody", "tr", "td", "li", "span"}
)
# Lists and tables are judged whole: one row or item that is a link is content (a reference),
# a list or table of nothing but links is a menu.
_LINK_JUDGED = frozenset({"div", "section", "p", "ul", "ol", "dl", "table"})
# Texinfo's "Next: Foo, Previous: Bar, Up: Top [Contents][Index]" (when its class is missing).
_NAV_LINE = re.compile(r"^\s*(next|previous|prev|up)\s*:", re.IGNORECASE)
NAV_LINE_CHARS = 300
"""Longer blocks starting "Next:" are prose, not a navigation line."""
_ARTICLE_LIKE = frozenset({"article", "main", "section"})
_SPACE = re.compile(r"\s+")


def html_text(html: str) -> str:
    """The main text of ``html`` as lines (one per block), boilerplate removed (module doc)."""
    main = _main_text(html)
    return main if main else _all_text(html)


def _main_text(html: str) -> str:
    """The text after removing boilerplate, or "" when the tree cannot be trusted."""
    import lxml.etree
    import lxml.html

    if not html.strip():
        return ""
    parser = lxml.html.HTMLParser(huge_tree=True, remove_comments=True, remove_pis=True)
    # An XML declaration with an encoding is refused in a str: the text is decoded already.
    html = re.sub(r"^\s*<\?xml[^>]*\?>", "", html, count=1)
    try:
        document = lxml.html.document_fromstring(html, parser=parser)
    except (lxml.etree.ParserError, ValueError):
        return ""
    if any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log):
        return ""  # nested deeper than the parser goes: it dropped text below that depth
    root = _content_root(document)
    _drop(root, [element for element in root.iter() if _never_content(element, root)])
    _drop(root, _link_dense(root))
    text = _all_text(lxml.html.tostring(root, encoding="unicode"))
    return text


def _content_root(document: Any) -> Any:
    """``<main>``, else the only ``<article>``, else ``<body>`` (else the document)."""
    mains = document.xpath("//main | //*[@role='main']")
    if mains:
        return mains[0]
    articles = document.xpath("//article")
    if len(articles) == 1:
        return articles[0]
    body = document.find("body")
    return body if body is not None else document


def _tokens(element: Any) -> set[str]:
    names = f"{element.get('class') or ''} {element.get('id') or ''}".lower()
    return set(names.split())


def _never_content(element: Any, root: Any) -> bool:
    """Whether ``element`` is one of the kinds of boilerplate in step 2 of the module doc."""
    if element is root or not isinstance(element.tag, str):
        return False
    tag = element.tag.lower()
    if tag in _NEVER_CONTENT:
        return True
    if (element.get("role") or "").lower() in _ROLES:
        return True
    if tag in _PAGE_LANDMARKS:
        # An article's own header holds its title and byline: that is content.
        return not any(
            isinstance(parent.tag, str) and parent.tag.lower() in _ARTICLE_LIKE
            for parent in element.iterancestors()
        )
    return tag in _CONTAINERS and bool(_tokens(element) & _NAV_NAMES)


def _length(text: str | None) -> int:
    return len(_SPACE.sub(" ", text).strip()) if text else 0


def _link_dense(root: Any) -> list[Any]:
    """The outermost blocks under ``root`` whose text is mostly link text (step 3).

    Lengths are summed bottom-up in one pass (reversed document order puts every element after
    its descendants), so a huge page costs linear time and no recursion.
    """
    elements = list(root.iter())
    total: dict[Any, int] = {}
    links: dict[Any, int] = {}
    for element in reversed(elements):
        own = _length(element.text)
        child_total = sum(total[child] + _length(child.tail) for child in element)
        child_links = sum(links[child] for child in element)
        total[element] = own + child_total
        is_link = isinstance(element.tag, str) and element.tag.lower() == "a"
        links[element] = total[element] if is_link else child_links
    dense: list[Any] = []
    inside: set[Any] = set()
    for element in elements:  # document order: outer blocks first
        parent = element.getparent()
        if parent in inside:
            inside.add(element)
            continue
        if element is root or not isinstance(element.tag, str):
            continue
        if element.tag.lower() not in _LINK_JUDGED or not total[element]:
            continue
        if links[element] > LINK_DENSITY * total[element] or _nav_line(element, total):
            dense.append(element)
            inside.add(element)
    return dense


def _nav_line(element: Any, total: dict[Any, int]) -> bool:
    """A short block with links that starts like texinfo's "Next: … Previous: … Up: …"."""
    if total[element] > NAV_LINE_CHARS or len(element.xpath(".//a")) < 2:
        return False
    return bool(_NAV_LINE.match(element.text_content()))


def _drop(root: Any, elements: Iterable[Any]) -> None:
    """Remove ``elements`` (keeping the text that follows each, which belongs to its parent)."""
    for element in elements:
        if element is not root and element.getparent() is not None:
            element.drop_tree()


class _TextExtractor(HTMLParser):
    """Visible text of an HTML page: no scripts, styles or tags; blocks become lines."""

    _SKIP = frozenset({"script", "style", "noscript", "template", "head"})
    _BLOCKS = frozenset(
        {
            "p",
            "div",
            "br",
            "li",
            "tr",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "section",
            "article",
            "main",
            "pre",
            "dt",
            "dd",
            "blockquote",
            "table",
            "ul",
            "ol",
        }
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BLOCKS:
            self._pre += tag == "pre"
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self._skipping:
            self._skipping -= 1
        elif tag in self._BLOCKS:
            self._pre -= tag == "pre" and self._pre > 0
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            # A line break in the source is a space in a paragraph, a line break in <pre>.
            self.parts.append(data if self._pre else " ".join(data.splitlines()))


def _all_text(html: str) -> str:
    """Every visible line of ``html`` (scripts and styles aside), whitespace collapsed."""
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    lines = (" ".join(line.split()) for line in "".join(parser.parts).splitlines())
    return "\n".join(line for line in lines if line)
