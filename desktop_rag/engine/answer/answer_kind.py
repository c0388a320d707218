"""The kind of answer a question asks for, and whether a sentence carries a token of that kind.

"绿茶用多少度的水？" wants a quantity, "When did ...?" a time, "谁 ...？" a person, "Where ...?" a place. A sentence that
carries such a token (a number, a year or a month, a name with a title or initials, a place word) is likelier to
hold the answer than one that only repeats the question's words; answer/selection.py weighs it. Both languages.
"""

from __future__ import annotations

import re

QUANTITY, TIME, PERSON, PLACE = "quantity", "time", "person", "place"

_NUMERAL = r"[0-9０-９]|[一二两三四五六七八九十百千万亿半]"
_EN_NUMBER = (r"\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
              r"hundred|thousand|million|billion|dozen|half|once|twice)\b")
_MONTHS = r"\b(january|february|march|april|may|june|july|august|september|october|november|december)\b"
_DAYS = r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"

# (kind, what asks for it, what carries it); the first kind asked wins, so time comes before quantity ("哪一年", "多少年前")
_KINDS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (TIME,
     re.compile(r"^\W*when\b|\bwhen (did|does|do|is|was|were|will|would|has|have|had|can|could|should)\b|what (year|date|time|day|month|decade|century|period|era)|which (year|decade|century|month|day)"
                r"|in what year|何时|什么时候|哪一?年|哪个?年代|哪一?天|哪个月|几月|几号|几点|哪个?世纪|什么年代|何年|日期|什么时间", re.I),
     re.compile(r"\b1\d{3}\b|\b20\d{2}\b|\d{1,4}\s*(年|月|日|号|世纪|年代)|[一二三四五六七八九十]+(月|日|号|世纪|年代)|世纪|年代|"
                r"[上下本这]个?(月|周|星期)|[今明去前后]年|[今明昨前后]天|"
                r"朝|时期|星期|周[一二三四五六日]|\b(\d{1,2}(st|nd|rd|th)|centur(y|ies)|decades?|ago|bc|ad|"
                r"spring|summer|autumn|winter)\b|" + _MONTHS + "|" + _DAYS, re.I)),
    (QUANTITY,
     re.compile(r"how (many|much|long|old|far|often|hot|cold|big|large|tall|high|fast|deep|heavy|wide)|"
                r"what (temperature|percentage|percent|proportion|ratio|number|amount|size|price|cost|distance|speed)|"
                r"\btemperature\b|"
                r"\bnumber of\b|多少|几(?![乎何率])|多久|多长|多大|多高|多远|多重|多快|多深|多宽|什么温度|温度|比例|价格|费用|人口|数量|百分之",
                re.I),
     re.compile(_NUMERAL + r"|%|％|percent|" + _EN_NUMBER, re.I)),
    (PERSON,
     re.compile(r"\bwho(m|se)?\b|which person|谁|哪位|什么人|何人|哪个人", re.I),
     re.compile(r"[A-Z][a-z]+\s+(?:[A-Z]\.\s*)?[A-Z][a-z]+|\b(Mr|Mrs|Ms|Dr|Sir|King|Queen|President|Professor|Saint|St)\b\.?|"
                r"[\u4e00-\u9fff]{1,4}·[\u4e00-\u9fff]{1,6}|先生|女士|老师|教授|博士|总统|国王|皇帝|女王|主席|总理|将军|作家|"
                r"科学家|导演|演员|创始人|发明|写的|创立|领导")),
    (PLACE,
     re.compile(r"\bwhere\b|which (country|city|state|place|region|town|continent|island|river|street|building)|"
                r"what (country|city|state|place|region|town|continent|island|river|street|building|location)|"
                r"哪里|在哪|哪儿|什么地方|何处|哪个(国家|城市|省|州|地区|地方)|哪座|地址|位于", re.I),
     re.compile(r"(省|市|县|区|镇|村|路|街|楼|国|州|城|岛|山|河|湖|海|港|大道|园区|地区|位于|地址|附近)|"
                r"\b(in|at|near|from)\s+(the\s+)?[A-Z][a-z]+|\b(located|city|country|state|street|road|avenue|river|"
                r"island|building|floor|room|region|province|county)\b")),
)


def answer_kind(question: str) -> str | None:
    """QUANTITY, TIME, PERSON or PLACE when the question asks for one (in English or Chinese), else None."""
    for kind, asks, _ in _KINDS:
        if asks.search(question):
            return kind
    return None


def carries(kind: str | None, sentence: str) -> bool:
    """Whether `sentence` holds a token of `kind` (False for no kind)."""
    for name, _, token in _KINDS:
        if name == kind:
            return token.search(sentence) is not None
    return False
