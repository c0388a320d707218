"""The review log in numbers and the user's test set measured (issue 39)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReviewWeek:
    """One week of answers (`week`: its Monday, YYYY-MM-DD, local time) and the two online signals."""

    week: str
    answers: int
    opened: int  # answers one of whose sources the user opened in the viewer
    reasked: int  # answers whose question was asked again or rephrased soon after, or met "are you sure"
    grades: tuple[tuple[str, int], ...] = ()  # (grade, count) for each of GRADES

    @property
    def opened_rate(self) -> float:
        return self.opened / self.answers if self.answers else 0.0

    @property
    def reasked_rate(self) -> float:
        return self.reasked / self.answers if self.answers else 0.0


@dataclass(frozen=True)
class ReviewStats:
    """The review log in numbers (`Engine.review.stats`): all answers, their grades, the labelled questions (a
    marked right passage: the user's test set) and the signals, by week, oldest first."""

    answers: int
    grades: tuple[tuple[str, int], ...]  # (grade, count) for each of GRADES, in that order
    ungraded: int
    labelled: int
    opened: int
    reasked: int
    weeks: tuple[ReviewWeek, ...] = ()

    def to_json(self) -> dict:
        return {"answers": self.answers, "grades": dict(self.grades), "ungraded": self.ungraded,
                "labelled": self.labelled, "opened": self.opened, "reasked": self.reasked,
                "weeks": [{"week": w.week, "answers": w.answers, "opened": w.opened, "reasked": w.reasked,
                           "grades": dict(w.grades)} for w in self.weeks]}


@dataclass(frozen=True)
class EvalScores:
    """One way of retrieving, measured on the labelled questions: mean recall@5, precision@5 and nDCG@10."""

    mode: str  # "hybrid" (the app's search), "dense", "keyword", "hybrid+compression"
    queries: int
    recall_at_5: float
    precision_at_5: float
    ndcg_at_10: float

    def to_json(self) -> dict:
        return {"queries": self.queries, "recall@5": round(self.recall_at_5, 6),
                "precision@5": round(self.precision_at_5, 6), "ndcg@10": round(self.ndcg_at_10, 6)}


@dataclass(frozen=True)
class StaleLabel:
    """A labelled question that cannot be measured now: its marked passage "changed" or "vanished" (or, for an
    imported set, none of its relevant documents is in the library)."""

    id: str
    question: str
    reason: str


@dataclass(frozen=True)
class EvalReport:
    """`Engine.review.evaluate`: the labelled questions ("grades": the user's marked passages; "import": a BEIR set)
    against the library as it is now, one EvalScores per retrieval mode (the first is the app's hybrid
    search), and the questions that could not be measured."""

    source: str
    modes: tuple[EvalScores, ...]
    stale: tuple[StaleLabel, ...] = ()
    cancelled: bool = False

    @property
    def main(self) -> EvalScores | None:
        return self.modes[0] if self.modes else None

    def to_json(self) -> dict:
        main = self.main.to_json() if self.main else {"queries": 0, "recall@5": 0.0, "precision@5": 0.0,
                                                         "ndcg@10": 0.0}
        return {**main, "source": self.source, "modes": {m.mode: m.to_json() for m in self.modes},
                "stale": [{"id": s.id, "question": s.question, "reason": s.reason} for s in self.stale],
                "cancelled": self.cancelled}
