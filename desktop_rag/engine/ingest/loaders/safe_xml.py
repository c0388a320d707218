"""XML from a document's package, parsed without entity expansion, DTD fetching or network (defusedxml).

defusedxml (PSF licence) wraps the standard library's expat parser and refuses entity declarations and
external references outright, so a billion-laughs or external-entity part fails at once with a clear error.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element, ParseError

from desktop_rag.engine.errors import LoadError
from desktop_rag.engine.messages import Phrase


def parse_xml(data: bytes, what: Phrase) -> Element:
    """The root element of `data`; LoadError naming `what` (e.g. "the e-book's package file") when refused."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    try:
        return fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise LoadError.coded("xml_entities", what=what) from exc
    except (ParseError, ValueError) as exc:
        raise LoadError.coded("xml_damaged", what=what) from exc


def local(tag: object) -> str:
    """An element's tag without its namespace: "{urn:x}rootfile" -> "rootfile"."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
