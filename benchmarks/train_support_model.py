"""Trains the learned support model shipped in src/groundgate/verify/data/support_model.json.

    python benchmarks/train_support_model.py [--check] [--no-write]

Data: the `tune` split (`groundgate.evaluation.scoring.checker_scores.split_of`) of the public HaluQA and HaluSum
sets in ../shared/data/checker-en/ and of tests/data/check_dev.jsonl. A pair is (answer, context
passages joined) with the answer-level label; the model is a logistic regression over the
bilingual features of `groundgate.verify.support_model.features`, standardised, L2-regularised,
fitted by Newton's method with balanced class and source weights (each source counts equally, so the
3,000-row public sets do not drown the bilingual dev set). Everything is deterministic: the same
data gives the same weights, rounded to 6 decimals, and the `version` is a hash of them.

The threshold is the probability that maximises the mean balanced accuracy over the sources on the
tune split. Standalone figures on the `test` splits are printed at the end (and, unless
`--no-write`, into docs/benchmarks.md). `--check` retrains and fails if the shipped file differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from groundgate.evaluation.scoring.checker_scores import split_of
from groundgate.verify.support_model import FEATURE_NAMES, features

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "checker-en"
if not SHARED.is_dir():
    SHARED = Path("/work/shared/data/checker-en")
OUT = ROOT / "src" / "groundgate" / "verify" / "data" / "support_model.json"
SOURCES = {
    "haluqa": SHARED / "haluqa.jsonl",
    "halusum": SHARED / "halusum.jsonl",
    "dev": ROOT / "tests" / "data" / "check_dev.jsonl",
}
L2 = 1.0


#: Features where more means more support: an answer is as supported as its weakest sentence.
_HIGHER_IS_SUPPORT = frozenset(
    {
        "unit_precision",
        "bigram_precision",
        "best_sentence_precision",
        "rare_coverage",
        "number_coverage",
        "entity_coverage",
        "lexicon_coverage",
        "cross_x_number_coverage",
        "cross_x_lexicon_coverage",
        "cross_x_unit_precision",
    }
)
_SENTENCE = re.compile(r"(?<=[.!?。！？；;])\s*")


def answer_features(answer: str, evidence: str) -> list[float]:
    """The model scores one claim; a labelled answer of several sentences is scored as its weakest
    sentence: the elementwise worst of the sentences' features (min of coverages, max of misses)."""
    sentences = [s for s in _SENTENCE.split(answer) if len(s.strip()) > 1] or [answer]
    rows = [features(s, evidence) for s in sentences]
    return [
        (min if name in _HIGHER_IS_SUPPORT else max)(row[i] for row in rows)
        for i, name in enumerate(FEATURE_NAMES)
    ]


def load(split: str) -> dict[str, tuple[NDArray[np.float64], NDArray[np.float64], list[dict[str, object]]]]:
    """Per source: features, labels (1 = supported) and the rows of one split."""
    out = {}
    for name, path in SOURCES.items():
        rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
        rows = [r for r in rows if split_of(r.get("id"), r.get("split")) == split]
        x = np.array(
            [
                answer_features(
                    str(r["answer"]),
                    "\n".join(r["context"]) if isinstance(r["context"], list) else str(r["context"]),
                )
                for r in rows
            ],
            dtype=np.float64,
        )
        y = np.array([1.0 if r["label"] == "supported" else 0.0 for r in rows])
        out[name] = (x, y, rows)
    return out


def fit(x: NDArray[np.float64], y: NDArray[np.float64], w: NDArray[np.float64]) -> NDArray[np.float64]:
    """Weighted L2 logistic regression by Newton's method; returns [bias, weights…]."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(xb.shape[1])
    reg = np.full(xb.shape[1], L2)
    reg[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(xb @ beta, -30, 30)))
        grad = xb.T @ (w * (p - y)) + reg * beta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + np.diag(reg + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return beta


def balanced_accuracy(prob: NDArray[np.float64], y: NDArray[np.float64], threshold: float) -> float:
    """Balanced accuracy with `hallucinated` (y = 0) flagged when prob < threshold."""
    flagged = prob < threshold
    recall = float(np.mean(flagged[y == 0])) if np.any(y == 0) else 0.0
    specificity = float(np.mean(~flagged[y == 1])) if np.any(y == 1) else 0.0
    return (recall + specificity) / 2


def train() -> tuple[dict[str, object], dict[str, dict[str, float]]]:
    tune = load("tune")
    x = np.vstack([v[0] for v in tune.values()])
    y = np.concatenate([v[1] for v in tune.values()])
    weights = []
    for _xs, ys, _ in tune.values():
        # Each source weighs the same in total, each class half of it.
        n_pos, n_neg = max(ys.sum(), 1.0), max((1 - ys).sum(), 1.0)
        weights.append(np.where(ys == 1, 0.5 / n_pos, 0.5 / n_neg) * len(y) / len(tune))
    w = np.concatenate(weights)
    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales < 1e-9] = 1.0
    beta = fit((x - means) / scales, y, w)
    model = {
        "features": list(FEATURE_NAMES),
        "bias": round(float(beta[0]), 6),
        "weights": [round(float(b), 6) for b in beta[1:]],
        "means": [round(float(m), 6) for m in means],
        "scales": [round(float(s), 6) for s in scales],
    }

    def probs(xs: NDArray[np.float64]) -> NDArray[np.float64]:
        z = model["bias"] + ((xs - np.array(model["means"])) / np.array(model["scales"])) @ np.array(
            model["weights"]
        )  # type: ignore[operator]
        return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))), dtype=np.float64)

    candidates = [round(t, 2) for t in np.arange(0.05, 0.96, 0.01)]
    threshold = max(
        candidates,
        key=lambda t: (
            sum(balanced_accuracy(probs(xs), ys, t) for xs, ys, _ in tune.values()),
            -abs(t - 0.5),
        ),
    )
    model["threshold"] = threshold
    model["version"] = "lr-" + hashlib.sha256(json.dumps(model, sort_keys=True).encode()).hexdigest()[:12]
    model["trained_on"] = {name: len(v[1]) for name, v in tune.items()}
    figures: dict[str, dict[str, float]] = {}
    for split, data in (("tune", tune), ("test", load("test"))):
        for name, (xs, ys, rows) in data.items():
            p = probs(xs)
            figures[f"{name}/{split}"] = {
                "n": len(ys),
                "balanced_accuracy": round(balanced_accuracy(p, ys, threshold), 4),
            }
            if name == "dev":
                for lang in ("zh", "en"):
                    mask = np.array([r["lang"] == lang for r in rows])
                    figures[f"dev-{lang}/{split}"] = {
                        "n": int(mask.sum()),
                        "balanced_accuracy": round(balanced_accuracy(p[mask], ys[mask], threshold), 4),
                    }
    return model, figures


def render(model: dict[str, object]) -> str:
    return json.dumps(model, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if the shipped weights differ")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    model, figures = train()
    text = render(model)
    if args.check:
        if OUT.read_text("utf-8") != text:
            sys.exit(f"{OUT} differs from a fresh training run")
        print(f"ok: {model['version']}")
        return
    if not args.no_write:
        OUT.write_text(text, encoding="utf-8")
    # Load time in a fresh process: the weights and the lexicon they use, cold, as a first check pays.
    cold = subprocess.run(
        [
            sys.executable,
            "-c",
            "from groundgate.verify.support_model import load_time_ms; print(load_time_ms())",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    print(
        f"version {model['version']}, threshold {model['threshold']}, {len(text.encode())} bytes, "
        f"cold load {float(cold.stdout):.0f} ms (weights + lexicon)"
    )
    for name, f in figures.items():
        print(f"{name:16} n={f['n']:5} balanced accuracy {f['balanced_accuracy']:.3f}")


if __name__ == "__main__":
    main()
