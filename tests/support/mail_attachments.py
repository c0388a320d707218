"""An e-mail message with attachments (a Chinese note, a three-page PDF), as the e-mail attachment tests and the
archive's round trip index it (tests/engine/test_email_attachments.py, test_archive.py)."""

from __future__ import annotations

from email.message import EmailMessage

from tests.data.make_fixtures import build_pdf

PAGES = [["Chapter 1: the harbour", "The ferry timetable changes in spring."],
         ["Chapter 2: the lighthouse", "The lighthouse keeper logs the weather at dawn."],
         ["Chapter 3: the market", "The fish market opens at five in the morning."]]


def harbour_message(body: str = "Please find the files attached.", notes: str = "仓库的钥匙放在前台的抽屉里。",
             with_pdf: bool = True) -> EmailMessage:
    """A message with a Chinese text attached (备忘.txt) and, `with_pdf`, a three-page PDF (guide.pdf: PAGES)."""
    msg = EmailMessage()
    msg["Subject"] = "Harbour files"
    msg["From"] = "Ann Lee <ann@example.org>"
    msg.set_content(body)
    msg.add_attachment(notes.encode(), maintype="text", subtype="plain", filename="备忘.txt")
    if with_pdf:
        msg.add_attachment(build_pdf(PAGES), maintype="application", subtype="pdf", filename="guide.pdf")
    return msg
