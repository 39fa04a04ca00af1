"""Question understanding: what a question needs answered, and follow-ups resolved (issue 11).

Pure code over the question text (and, for follow-ups, the session's earlier questions): no I/O,
no model. The runtime records what this package derives with the run; the executor answers each
need; the verifier checks the verified claims against it.
"""

from groundgate.questions.answer_kinds import failure_terms, gives_kind
from groundgate.questions.conditions import QUANTITY_MENTIONS, quantity_interval, read_conditions
from groundgate.questions.coverage import (
    NeedMatch,
    Statement,
    TermEquivalents,
    best_match,
    is_rule_name,
    match_need,
    statement,
)
from groundgate.questions.followup import Resolution, Turn, is_followup, resolve_followup
from groundgate.questions.interrogatives import answer_kind, value_kinds
from groundgate.questions.needs import (
    derive_needs,
    join_words,
    refers_back,
    round_two_query,
    split_parts,
)

__all__ = [
    # needs: derive them from a question
    "derive_needs",
    "join_words",
    "round_two_query",
    "split_parts",
    # conditions: figures, days and times a need holds under
    "QUANTITY_MENTIONS",
    "quantity_interval",
    "read_conditions",
    # interrogatives: the kind of answer a question asks for
    "answer_kind",
    "value_kinds",
    # coverage: does a statement meet a need
    "NeedMatch",
    "Statement",
    "TermEquivalents",
    "best_match",
    "is_rule_name",
    "match_need",
    "statement",
    "gives_kind",
    "failure_terms",
    # follow-ups: complete a question from the session's earlier questions
    "Resolution",
    "Turn",
    "is_followup",
    "resolve_followup",
    "refers_back",
]
