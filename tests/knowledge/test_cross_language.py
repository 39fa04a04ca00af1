"""Cross-language retrieval offline: the bundled zh↔en lexicon, query expansion, titles, aliases, labels."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from groundgate.contracts import ExecutionContext, RetrievalLayer
from groundgate.errors import ConfigurationError
from groundgate.knowledge import EdgeKnowledgeIndex, SearchFilter, ingest_path, parse_document
from groundgate.knowledge.index import LOW, SearchResults, chunk_search_text
from groundgate.text.lexicon import LEXICON_RESOURCE, Lexicon, default_lexicon
from groundgate.tools.builtin.knowledge import LookupKnowledgeArgs, best_excerpt, make_lookup_knowledge

ROOT = Path(__file__).resolve().parents[2]
DEMO_DOCS = ROOT / "src" / "groundgate" / "demo" / "workspace" / "docs"
ADDED_DOCS = ROOT / "tests" / "data" / "pipeline_docs"
QUESTIONS = ROOT / "tests" / "data" / "pipeline_questions.yaml"
AS_OF = date(2026, 3, 14)
ACME = SearchFilter(tenant="acme", as_of=AS_OF)


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cross_language_questions() -> list[tuple[str, str, list[str]]]:
    raw = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    out = []
    for item in raw["questions"]:
        if item["category"] == "cross_language":
            relevant = item["relevant_doc"]
            out.append((item["id"], item["question"], [relevant] if isinstance(relevant, str) else relevant))
    return out


CROSS_LANGUAGE = _cross_language_questions()


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, EdgeKnowledgeIndex]]:
    """The demo documents and the added ones, indexed with the lexicon and without it."""
    base = tmp_path_factory.mktemp("xl")
    with (
        EdgeKnowledgeIndex(base / "with") as with_lexicon,
        EdgeKnowledgeIndex(base / "without", lexicon=Lexicon([])) as without,
    ):
        for index in (with_lexicon, without):
            for folder in (DEMO_DOCS, ADDED_DOCS):
                assert ingest_path(folder, index).bad_files == []
        yield {"with": with_lexicon, "without": without}


def top5(index: EdgeKnowledgeIndex, question: str) -> list[str]:
    return list(dict.fromkeys(h.chunk.doc_id for h in index.search(question, filters=ACME, limit=5)))


# --------------------------------------------------------------------------- the lexicon itself


def test_the_bundled_lexicon_has_several_hundred_concepts_in_both_languages() -> None:
    lexicon = default_lexicon()
    assert len(lexicon) >= 300
    assert lexicon.term_count >= 1000
    assert all(concept.zh and concept.en for concept in lexicon.concepts)


def test_the_bundled_lexicon_is_what_its_build_script_produces() -> None:
    build = _module(ROOT / "benchmarks" / "build_lexicon.py")
    shipped = (ROOT / "src" / "groundgate" / "text" / LEXICON_RESOURCE).read_text(encoding="utf-8")
    assert build.render(build.parse_entries(build.ENTRIES)) == shipped


@pytest.mark.parametrize(
    ("text", "matched", "alternate"),
    [
        ("What is the hotel limit per night in Beijing?", ["hotel limit", "per night", "Beijing"], "每晚"),
        ("How do I roll back a release?", ["roll back", "release"], "回滚"),
        ("Who runs the ON-CALL rotations?", ["ON-CALL rotations"], "排班"),
        ("工作满 12 年有几天年假？", ["年假"], "年休假"),
        ("产假多少天？婚假多少天？", ["产假", "婚假"], "marriage leave"),
        ("连接池耗尽怎么办", ["连接池耗尽"], "pool exhausted"),
        ("Ｐａｙｍｅｎｔ ｇａｔｅｗａｙ", ["Ｐａｙｍｅｎｔ ｇａｔｅｗａｙ"], "支付网关"),
        ("年", [], None),
    ],
    ids=[
        "en-phrases",
        "en-verb-phrase",
        "hyphen-and-plural",
        "zh-synonym",
        "zh-two-terms",
        "zh-longest",
        "fullwidth",
        "one-char",
    ],
)
def test_lexicon_terms_are_found_longest_first_in_both_scripts(
    text: str, matched: list[str], alternate: str | None
) -> None:
    matches = default_lexicon().matches(text)
    assert [m.text for m in matches] == matched
    assert all(text[m.start : m.end] == m.text for m in matches)
    if alternate is not None:
        assert any(alternate in m.alternates() for m in matches)


@pytest.mark.parametrize(
    ("tsv", "problem"),
    [
        ("c1\tonly two columns\n", "expected 3 tab-separated columns"),
        ("c1\t\t\n", "a concept without terms"),
    ],
)
def test_a_malformed_lexicon_is_a_configuration_error(tsv: str, problem: str) -> None:
    with pytest.raises(ConfigurationError, match=problem):
        Lexicon.from_tsv(tsv)


def test_titles_and_aliases_are_indexed_with_their_translations() -> None:
    text = "---\ntitle: 会议室预订规则\naliases: [Meeting Room Booking Rules]\n---\n# 会议室预订规则\n\n最早提前 14 天预订。\n"
    [chunk] = parse_document(text, source="rooms.md", default_doc_id="rooms").chunks
    search_text = chunk_search_text(chunk)
    assert "Meeting Room Booking Rules" in search_text
    translations = search_text.split("\n")[1]
    assert "conference room" in translations  # 会议室, translated
    assert "Meeting Room" not in translations  # words already in the head are not repeated
    assert search_text.endswith(chunk.text)


# --------------------------------------------------------------------------- retrieval across languages


@pytest.mark.slow
@pytest.mark.parametrize(("qid", "question", "relevant"), CROSS_LANGUAGE, ids=[q[0] for q in CROSS_LANGUAGE])
def test_a_question_finds_its_document_in_the_other_language(
    shards: dict[str, EdgeKnowledgeIndex], qid: str, question: str, relevant: list[str]
) -> None:
    found = top5(shards["with"], question)
    assert set(relevant) & set(found), f"{qid}: {relevant} not in the top 5 {found}"


def test_the_lexicon_is_what_bridges_the_languages(shards: dict[str, EdgeKnowledgeIndex]) -> None:
    def recall(index: EdgeKnowledgeIndex) -> float:
        hits = sum(bool(set(rel) & set(top5(index, q))) for _, q, rel in CROSS_LANGUAGE)
        return hits / len(CROSS_LANGUAGE)

    assert len(CROSS_LANGUAGE) >= 20
    assert recall(shards["with"]) >= 0.8
    assert recall(shards["without"]) < recall(shards["with"])


def test_an_english_question_over_a_chinese_passage_is_highly_relevant(
    shards: dict[str, EdgeKnowledgeIndex],
) -> None:
    hits = shards["with"].search("What is the hotel limit per night in Beijing?", filters=ACME, limit=3)
    assert isinstance(hits, SearchResults)
    assert hits[0].chunk.doc_id == "hr-travel-reimbursement"
    assert hits[0].relevance == "high"  # coverage counts 住宿 / 每晚 / 北京 for hotel / per night / Beijing
    assert ("Beijing", ("北京", "peking")) in hits.expansions


def test_an_alias_is_an_exact_title_key(shards: dict[str, EdgeKnowledgeIndex]) -> None:
    hits = shards["with"].search("What do the Meeting Room Booking Rules say?", filters=ACME, limit=3)
    assert hits[0].chunk.doc_id == "meeting-room-booking"
    assert hits[0].layer is RetrievalLayer.L0
    assert hits[0].chunk.meta.aliases == ("Meeting Room Booking Rules",)


@pytest.mark.parametrize(
    ("question", "first", "other"),
    [
        ("When is the Team B standup?", "team-b-standup", "team-a-standup"),
        ("Where is the Team A standup held?", "team-a-standup", "team-b-standup"),
        ("B 组的站会几点开？", "team-b-standup", "team-a-standup"),
    ],
)
def test_a_labelled_name_ranks_its_own_document_first(
    shards: dict[str, EdgeKnowledgeIndex], question: str, first: str, other: str
) -> None:
    hits = shards["with"].search(question, filters=ACME, limit=4)
    assert hits[0].chunk.doc_id == first
    assert all(h.relevance == LOW for h in hits if h.chunk.doc_id == other)


def test_passages_about_other_labelled_entities_are_low_relevance(
    shards: dict[str, EdgeKnowledgeIndex],
) -> None:
    hits = shards["with"].search("When is the Team C standup?", filters=ACME, limit=4)
    assert hits  # the standup documents are still shown...
    assert {h.relevance for h in hits} == {LOW}  # ...but none of them is about Team C


# --------------------------------------------------------------------------- the knowledge tool


def test_the_tool_says_which_words_it_translated_and_quotes_the_answering_sentence(
    shards: dict[str, EdgeKnowledgeIndex],
) -> None:
    run = make_lookup_knowledge(shards["with"], as_of=AS_OF)
    output = run(
        LookupKnowledgeArgs(query="What is the hotel limit per night in Beijing?"),
        ExecutionContext(tenant="acme", user="u"),
    )
    assert "lexicon: " in output.observation
    assert "Beijing→北京" in output.observation
    excerpt = output.evidence_refs[0].excerpt or ""
    assert "每晚不超过 600 元" in excerpt


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What is the hotel limit per night in Beijing?", "一线城市"),
        ("How much is the daily meal allowance?", "餐饮补贴"),
        ("一线城市住宿每晚多少钱", "一线城市"),
    ],
)
def test_the_best_excerpt_follows_lexicon_translations(query: str, expected: str) -> None:
    text = (
        "本标准适用于全体员工。城际交通按实际发生报销。"
        "一线城市（北京、上海、广州、深圳）每晚不超过 600 元。餐饮补贴按天发放，每天 100 元。"
    )
    assert expected in best_excerpt(text, query).text
