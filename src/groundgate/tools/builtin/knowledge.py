"""The `lookup_knowledge` tool: governed documents from the knowledge index, as `DocumentEvidence`.

Arguments are the business question only: `query`, an optional `domain` (matched against the
documents' `scope`) and `top_k`. There is deliberately no date range (docs/design.md §1 invariant 2: date
ranges belong to task tools, never to knowledge search) and no tenant: the tenant comes from the
`ExecutionContext`, and the day the documents must be in effect on is the server's (`as_of`).

Projects are document scopes. A caller whose `ExecutionContext.allowed_projects` is not empty sees
only documents scoped to one of them (unscoped documents belong to no project and are hidden from
it), and a `domain` outside them is `DENIED`; an empty `allowed_projects` means no restriction.

Each hit becomes a `DocumentEvidence` whose `citation_id` is the chunk id and whose `text` is the
chunk exactly as stored, with one `EvidenceRef` pointing at the best excerpt inside it (the sentence
that holds the matched identifier, or the most query terms), by offsets into that text. Nothing
found is `EMPTY` with a gap naming what was asked.

A question in one language finds documents in the other through the index's bilingual lexicon (and
dense vectors, when an embedding endpoint is configured); the observation names the words it
translated (`lexicon: hotel→住宿, Beijing→北京`) and says when the dense half of the search was
unavailable and BM25 answered alone.

Each passage also carries its document's `authority_level` (the ordered level the verifier uses when
passages disagree) and its `instruction_spans`: sentences addressed to the assistant, marked at
ingestion (or found now, for chunks indexed before that). They stay in `text`, exactly as stored, but
the excerpt never points at them and the observation says how many passages hold some.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from pydantic import Field

from groundgate.contracts import (
    DocumentEvidence,
    EvidenceRef,
    ExecutionContext,
    RetrievalLayer,
    ToolOutput,
    ToolSpec,
    ToolStatus,
)
from groundgate.knowledge import Chunk
from groundgate.knowledge.index import KnowledgeIndex, SearchFilter, SearchHit, SearchResults
from groundgate.text.instructions import overlaps
from groundgate.text.lexicon import default_lexicon
from groundgate.text.segmentation import Span, split_sentences, tokenize
from groundgate.tools.builtin.clock import utc_now
from groundgate.tools.registry import ToolArguments, ToolFunction, ToolRegistry

__all__ = [
    "KNOWLEDGE_TOOL",
    "LookupKnowledgeArgs",
    "best_excerpt",
    "lookup_knowledge_spec",
    "lookup_knowledge_tool",
    "make_lookup_knowledge",
    "register_knowledge_tool",
]

#: Name of the knowledge tool.
KNOWLEDGE_TOOL = "lookup_knowledge"

#: An excerpt shorter than this is extended with the following sentence.
_MIN_EXCERPT = 40


class LookupKnowledgeArgs(ToolArguments):
    """Arguments of `lookup_knowledge`. No date range, no tenant (they are not the model's to give)."""

    query: str = Field(
        min_length=1,
        max_length=500,
        description="What to look up: a question, an error code, an API path, a policy or runbook name.",
    )
    domain: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Optional business domain to search in (a document scope such as payment, order, platform).",
    )
    top_k: int = Field(default=5, ge=1, le=20, description="How many passages to return (1-20).")


def lookup_knowledge_spec() -> ToolSpec:
    """The registered declaration of `lookup_knowledge`."""
    return ToolSpec(
        name=KNOWLEDGE_TOOL,
        description=(
            "Search governed documents (runbooks, policies, manuals, API references, error-code tables) "
            "in effect today. Exact identifiers (error codes, API paths, config keys, titles) are matched "
            "first, then passages ranked by relevance. Returns passages with their source and heading."
        ),
        argument_model=LookupKnowledgeArgs,
        authorization_policy="tenant",
        timeout_seconds=5.0,
    )


def make_lookup_knowledge(
    index: KnowledgeIndex, *, as_of: date | Callable[[], date] | None = None
) -> ToolFunction[LookupKnowledgeArgs]:
    """The tool function over `index`. `as_of`: the day documents must be in effect (default: today, UTC)."""

    def today() -> date:
        if as_of is None:
            return utc_now().date()
        return as_of() if callable(as_of) else as_of

    def run(args: LookupKnowledgeArgs, ctx: ExecutionContext) -> ToolOutput:
        day = today()
        allowed = {p.strip().lower() for p in ctx.allowed_projects if p.strip()}
        if allowed and args.domain and args.domain.strip().lower() not in allowed:
            return ToolOutput(
                status=ToolStatus.DENIED,
                gaps=[f"domain {args.domain!r} is not among the caller's allowed projects"],
                observation="denied: the domain is not an allowed project",
            )
        # A project-restricted caller searches only documents scoped to its projects (unscoped
        # documents belong to no project and are not shown to it); the engine filters, before ranking.
        scopes = (args.domain,) if args.domain else tuple(sorted(allowed))
        filters = SearchFilter(tenant=ctx.tenant, as_of=day, scopes=scopes)
        hits = index.search(args.query, filters=filters, limit=args.top_k)
        notes = _search_notes(hits)
        if not hits:
            where = f" in domain {args.domain!r}" if args.domain else ""
            gap = f"no document in effect on {day.isoformat()}{where} matches {args.query!r}"
            observation = "; ".join([f"no hits (L0 none, L1 none){where}", *notes])
            return ToolOutput(status=ToolStatus.EMPTY, gaps=[gap], observation=observation)
        return _output(hits, args.query, notes)

    return run


def lookup_knowledge_tool(
    index: KnowledgeIndex, *, as_of: date | Callable[[], date] | None = None
) -> tuple[ToolSpec, ToolFunction[LookupKnowledgeArgs]]:
    """The spec and the function, as the other built-in tools provide them."""
    return lookup_knowledge_spec(), make_lookup_knowledge(index, as_of=as_of)


def register_knowledge_tool(
    registry: ToolRegistry, index: KnowledgeIndex, *, as_of: date | Callable[[], date] | None = None
) -> str:
    """Register `lookup_knowledge` over `index`; returns its name."""
    spec, run = lookup_knowledge_tool(index, as_of=as_of)
    registry.register(spec, run)
    return spec.name


# --------------------------------------------------------------------------- output


def _search_notes(hits: list[SearchHit]) -> list[str]:
    """What the index said about the search: lexicon translations used, a dense fallback."""
    if not isinstance(hits, SearchResults):
        return []
    notes: list[str] = []
    if hits.expansions:
        shown = [f"{text}→{'/'.join(alts[:2])}" for text, alts in hits.expansions[:4] if alts]
        if shown:
            notes.append("lexicon: " + ", ".join(shown))
    notes.extend(hits.notes)
    return notes


def document_evidence(
    chunk: Chunk, *, layer: RetrievalLayer | None = None, score: float | None = None
) -> DocumentEvidence:
    """A knowledge chunk as `DocumentEvidence`: its text exactly as stored, with its governance
    metadata (the chat pipeline's `lookup_knowledge` and the business agent's `KNOWLEDGE_SEARCH`)."""
    meta = chunk.meta
    return DocumentEvidence(
        citation_id=chunk.chunk_id,
        source=meta.source,
        text=chunk.text,
        authority=meta.authority,
        authority_level=meta.authority_level,
        kind=meta.kind,
        version=meta.version,
        effective_from=meta.effective_from,
        effective_to=meta.effective_to,
        scope=meta.scope,
        tenant=meta.tenant,
        heading=chunk.heading,
        retrieval_layer=layer,
        score=score,
        instruction_spans=list(chunk.instruction_spans),
    )


def _output(hits: list[SearchHit], query: str, notes: Sequence[str] = ()) -> ToolOutput:
    documents: list[DocumentEvidence] = []
    refs: list[EvidenceRef] = []
    for hit in hits:
        chunk = hit.chunk
        documents.append(document_evidence(chunk, layer=hit.layer, score=round(hit.score, 4)))
        span = best_excerpt(chunk.text, query, hit.matched, avoid=chunk.instruction_spans)
        refs.append(
            EvidenceRef(
                invocation_id="",
                citation_id=chunk.chunk_id,
                start=span.start if span.text else None,
                end=span.end if span.text else None,
                excerpt=span.text or None,
            )
        )
    sources = list(dict.fromkeys(hit.chunk.meta.source for hit in hits))
    return ToolOutput(
        status=ToolStatus.OK,
        documents=documents,
        observation="; ".join([_observation(hits, sources), *notes]),
        retrieval_layers=[hit.layer for hit in hits],
        relevance_levels=[hit.relevance for hit in hits],
        source_documents=sources,
        evidence_refs=refs,
    )


def _observation(hits: list[SearchHit], sources: list[str]) -> str:
    """`L0 hit ERR_TIMEOUT in payment/errors.md; 5 chunks from 3 documents (L0 1, L1 4)`."""
    parts: list[str] = []
    l0 = [h for h in hits if h.layer is RetrievalLayer.L0]
    if l0:
        keys = list(dict.fromkeys(key for h in l0 for key in h.matched))
        l0_sources = list(dict.fromkeys(h.chunk.meta.source for h in l0))
        parts.append(f"L0 hit {', '.join(keys[:3]) or 'exact key'} in {', '.join(l0_sources[:3])}")
    counts = f"L0 {len(l0)}, L1 {len(hits) - len(l0)}"
    plural = "s" if len(sources) != 1 else ""
    parts.append(
        f"{len(hits)} chunk{'s' if len(hits) != 1 else ''} from {len(sources)} document{plural} ({counts})"
    )
    flagged = sum(1 for h in hits if h.chunk.instruction_spans)
    if flagged:
        parts.append(f"{flagged} with instruction-like text (not evidence)")
    return "; ".join(parts)


def best_excerpt(
    text: str, query: str, matched: tuple[str, ...] = (), *, avoid: Sequence[tuple[int, int]] = ()
) -> Span:
    """The sentence of `text` that best answers `query` (with offsets into `text`).

    Sentences holding a matched identifier or title score highest, then those sharing most query
    terms, then most of their lexicon translations (`knowledge.lexicon`); headings are passed over while a sentence of body text exists. A short sentence is
    extended with the next one. Sentences overlapping `avoid` (instruction-like text) are never
    chosen: when nothing else is left, the excerpt is empty.
    """
    every = split_sentences(text)
    allowed = [s for s in every if not overlaps(avoid, s.start, s.end)]
    sentences = [s for s in allowed if not s.text.lstrip().startswith("#")] or allowed
    if not sentences:
        return Span("", 0, 0) if every else Span(text, 0, len(text))
    query_terms = set(tokenize(query))
    # A question in the other language shares no word with the passage: its lexicon translations do.
    translated = set(tokenize(" ".join(default_lexicon().translations(query)))) - query_terms
    keys = [k.lower() for k in matched if k]

    def score(span: Span) -> tuple[int, int, int]:
        lowered = span.text.lower()
        exact = sum(1 for key in keys if key in lowered)
        words = set(tokenize(span.text))
        return exact, len(query_terms & words), len(translated & words)

    best_index = max(range(len(sentences)), key=lambda i: (score(sentences[i]), -i))
    start, end = sentences[best_index].start, sentences[best_index].end
    if (
        end - start < _MIN_EXCERPT
        and best_index + 1 < len(sentences)
        and not overlaps(avoid, end, sentences[best_index + 1].end)
    ):
        end = sentences[best_index + 1].end
    return Span(text[start:end], start, end)
